import BenchSupport
import Foundation
import Items

/// Flags messages for the crisis protocol: the corpus tag `crisis`, or a keyword of the message's
/// language (or of any language when it is unknown) found by case-folded substring match.
public struct CrisisCheck: Sendable {
    /// Keywords per language, already normalised.
    public var keywords: [String: [String]]

    public init(keywords: [String: [String]]) {
        var all: [String: [String]] = [:]
        for (language, list) in keywords {
            all[language] = list.map(Self.normalise).flatMap { Self.spellings(of: $0, language: language) }
        }
        self.keywords = all
    }

    /// Reads `lang<TAB>keyword` lines with a header (Config/crisis-keywords.tsv).
    public static func load(_ path: String) throws -> CrisisCheck {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ConfigurationError.unreadable(path: path, reason: "no such file")
        }
        var keywords: [String: [String]] = [:]
        for (index, line) in String(decoding: data, as: UTF8.self).split(separator: "\n").enumerated() where index > 0 {
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
    public static let defaultResource = "Config/crisis-keywords.tsv"
    public static var defaultPath: String { ToolResources.path(defaultResource) }

    public func isCrisis(_ item: CorpusItem, detected: LanguageCode?) -> Bool {
        if item.hasTag("crisis") { return true }
        let text = Self.normalise(item.text)
        let languages = Set([item.lang.language, detected?.language].compactMap { $0 })
        return languages.contains { keywords[$0]?.contains(where: text.contains) ?? false }
    }

    /// Lowercase, Turkish dotted capital I and dotless ı (Turkish, Kazakh Latin) folded to i,
    /// typographic apostrophes to '.
    static func normalise(_ text: String) -> String {
        text.replacingOccurrences(of: "İ", with: "i").lowercased().replacingOccurrences(of: "ı", with: "i")
            .replacingOccurrences(of: "\u{2019}", with: "'").replacingOccurrences(of: "\u{02BC}", with: "'")
    }
}
