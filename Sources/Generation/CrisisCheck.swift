import Support
import Foundation
import Corpus

/// Flags messages for the crisis protocol: the corpus tag `crisis`, or a keyword of the message's
/// language (or of any language when it is unknown) found by case-folded substring match.
package struct CrisisCheck: Sendable {
    /// Keywords per language, already normalised.
    package var keywords: [String: [String]]

    package init(keywords: [String: [String]]) {
        var all: [String: [String]] = [:]
        for (language, list) in keywords {
            all[language] = list.map(Self.normalise).flatMap { Self.spellings(of: $0, language: language) }
        }
        self.keywords = all
    }

    /// Reads `lang<TAB>keyword` lines with a header (Config/crisis-keywords.tsv).
    package static func load(_ path: String) throws -> CrisisCheck {
        if let kind = FileKind.notRegular(path), kind != "a character device" {
            throw ConfigurationError.unreadable(path: path, reason: "\(kind), not a keyword list")
        }
        let data: Data
        // Through a handle: Foundation's whole-file read refuses a device (/dev/null) as "permission denied".
        do { data = try FileHandle(forReadingFrom: URL(fileURLWithPath: path)).readToEnd() ?? Data() } catch {
            throw ConfigurationError.unreadable(path: path, reason: FileKind.reason(error, path: path))
        }
        var keywords: [String: [String]] = [:]
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n")
        // An empty list would answer every keyword-only crisis message with the model.
        guard lines.dropFirst().contains(where: { !$0.allSatisfy(\.isWhitespace) }) else {
            throw ConfigurationError.invalid(path: path, reason: "holds no keyword (\(data.isEmpty ? "the file is empty" : "a header only")): "
                                             + "a crisis message without its tag would reach the model; list lang<TAB>keyword lines")
        }
        for (index, line) in lines.enumerated() where index > 0 {
            let fields = line.split(separator: "\t").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            guard fields.count == 2, !fields[1].isEmpty else {
                throw ConfigurationError.invalid(path: path, reason: "line \(index + 1): expected lang<TAB>keyword")
            }
            let lang: LanguageCode
            do { lang = try LanguageCode(fields[0]) } catch {
                throw ConfigurationError.invalid(path: path, reason: "line \(index + 1): \(error.description)")
            }
            keywords[lang.language, default: []].append(fields[1])
        }
        return CrisisCheck(keywords: keywords)
    }

    /// The default keyword list, inside the tool's resources (`ToolResources`).
    package static let defaultResource = "Config/crisis-keywords.tsv"
    package static var defaultPath: String { ToolResources.path(defaultResource) }

    package func isCrisis(_ item: CorpusItem, detected: LanguageCode?) -> Bool {
        if item.hasTag("crisis") { return true }
        let text = Self.normalise(item.text)
        var languages = Set([item.lang.language, detected?.language].compactMap { $0 })
        // Short messages in these languages are confused with each other and people switch between them in one
        // message (a Ukrainian writing a Russian phrase): a keyword of any of them counts for all.
        if !languages.isDisjoint(with: Self.confusable) { languages.formUnion(Self.confusable) }
        return languages.contains { keywords[$0]?.contains(where: text.contains) ?? false }
    }

    /// The languages whose keywords count for each other's messages.
    package static let confusable: Set<String> = ["ru", "uk", "be", "bg", "mk", "sr", "kk"]

    /// Lowercase, Turkish dotted capital I and dotless ı (Turkish, Kazakh Latin) folded to i,
    /// typographic apostrophes to '.
    static func normalise(_ text: String) -> String {
        text.replacingOccurrences(of: "İ", with: "i").lowercased().replacingOccurrences(of: "ı", with: "i")
            .replacingOccurrences(of: "\u{2019}", with: "'").replacingOccurrences(of: "\u{02BC}", with: "'")
    }
}
