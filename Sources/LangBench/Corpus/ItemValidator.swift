import Foundation

/// Turns raw records into items, collecting every problem (unknown code, empty text, overlong text,
/// bad history) rather than stopping at the first.
enum ItemValidator {
    static func validate(_ record: RawRecord, problems: inout [CorpusProblem]) -> CorpusItem? {
        let location = record.location
        var ok = true
        let id = record.id?.trimmingCharacters(in: .whitespaces) ?? ""
        if id.isEmpty { problems.append(CorpusProblem(location, "empty id")); ok = false }
        var lang: LanguageCode?
        do {
            lang = try LanguageCode(record.lang ?? "")
        } catch {
            problems.append(CorpusProblem(location, error.description)); ok = false
        }
        let text = record.text ?? ""
        if text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            problems.append(CorpusProblem(location, "empty text")); ok = false
        } else if text.count > CorpusLimits.maxTextLength {
            problems.append(CorpusProblem(location, "text is \(text.count) characters; the limit is \(CorpusLimits.maxTextLength)"))
            ok = false
        }
        var history = record.history ?? []
        if let json = record.historyJSON {
            do {
                history = try JSONDecoder().decode([Turn].self, from: Data(json.utf8))
            } catch {
                problems.append(CorpusProblem(location, "history is not a JSON array of {\"role\",\"text\"} turns (\(JSONErrorText.describe(error)))"))
                ok = false
            }
        }
        if history.count > CorpusLimits.maxHistoryTurns {
            problems.append(CorpusProblem(location, "history has \(history.count) turns; the limit is \(CorpusLimits.maxHistoryTurns)"))
            ok = false
        }
        if history.contains(where: { $0.text.trimmingCharacters(in: .whitespaces).isEmpty }) {
            problems.append(CorpusProblem(location, "history has an empty turn")); ok = false
        }
        guard ok, let lang else { return nil }
        return CorpusItem(id: id, lang: lang, text: text, tags: Set(record.tags), history: history, source: location)
    }
}
