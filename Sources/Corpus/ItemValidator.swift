import Support
import Foundation

/// Turns raw records into items, collecting every problem (unknown code, empty text, overlong text,
/// bad history) rather than stopping at the first.
package enum ItemValidator {
    /// Normalised codes by raw spelling: a corpus repeats a handful of codes, and `Locale` look-ups
    /// dominated loading time without this.
    typealias CodeCache = [String: Result<LanguageCode, LanguageCodeError>]

    /// Trims spaces at the ends without Foundation's bridging cost (this runs once per item).
    static func trimmed(_ text: String) -> String {
        if let first = text.utf8.first, let last = text.utf8.last, isPrintableASCII(first), isPrintableASCII(last) {
            // The common case, without breaking graphemes: a Character is whitespace when its first
            // scalar is; the first Character starts with the first byte, and a last Character that ends
            // in a printable ASCII byte starts with it or with a Prepend scalar, and none is whitespace.
            return text
        }
        guard let first = text.first, let last = text.last, first.isWhitespace || last.isWhitespace else { return text }
        return String(text.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }

    /// Whether `text` shows nothing: every Character is whitespace or made only of invisible scalars
    /// (controls such as NUL, zero-width and other format characters). The first Character starts with
    /// the first scalar, so a text whose first scalar is neither is decided without breaking graphemes.
    package static func isBlank(_ text: String) -> Bool {
        if let first = text.unicodeScalars.first, !first.properties.isWhitespace, !isInvisible(first) { return false }
        return text.allSatisfy { $0.isWhitespace || $0.unicodeScalars.allSatisfy(isInvisible) }
    }

    /// A scalar that draws nothing: a control (C0, DEL, C1), a format character (zero-width space and
    /// joiners, bidi marks, BOM) or another default-ignorable code point (variation selectors, fillers).
    static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        let properties = scalar.properties
        return properties.generalCategory == .control || properties.generalCategory == .format || properties.isDefaultIgnorableCodePoint
    }

    /// The problem of a blank text: "empty text" when it is only whitespace, else what it holds instead.
    static func blankProblem(_ text: String, what: String) -> String {
        if text.allSatisfy(\.isWhitespace) { return "empty \(what)" }
        let shown = text.unicodeScalars.first { !$0.properties.isWhitespace }.map { String(format: "U+%04X", $0.value) } ?? ""
        return "\(what) has no visible character (only whitespace and control or zero-width characters such as \(shown)); give it readable text"
    }

    /// A byte from `!` to `~`: neither whitespace nor part of a multi-byte scalar.
    private static func isPrintableASCII(_ byte: UInt8) -> Bool {
        byte > 0x20 && byte < 0x7F
    }

    static func validate(_ record: RawRecord, problems: inout [CorpusProblem], codes: inout CodeCache) -> CorpusItem? {
        let location = record.location
        var ok = true
        let id = record.id.map(trimmed) ?? ""
        if id.isEmpty { problems.append(CorpusProblem(location, "empty id")); ok = false }
        var lang: LanguageCode?
        let raw = record.lang ?? ""
        let code = codes[raw] ?? Result { () throws(LanguageCodeError) in try LanguageCode(raw) }
        codes[raw] = code
        switch code {
        case .success(let value): lang = value
        case .failure(let error): problems.append(CorpusProblem(location, error.description)); ok = false
        }
        let text = record.text ?? ""
        if isBlank(text) {
            problems.append(CorpusProblem(location, blankProblem(text, what: "text"))); ok = false
        } else if text.utf8.count > CorpusLimits.maxTextLength && text.count > CorpusLimits.maxTextLength {  // count ≤ UTF-8 bytes
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
        if let blank = history.first(where: { isBlank($0.text) }) {
            let problem = blank.text.allSatisfy(\.isWhitespace) ? "history has an empty turn" : "history has a turn whose " + blankProblem(blank.text, what: "text")
            problems.append(CorpusProblem(location, problem)); ok = false
        }
        guard ok, let lang else { return nil }
        return CorpusItem(id: id, lang: lang, text: text, sortedTags: CorpusItem.sortedUnique(record.tags), history: history, source: location)
    }
}
