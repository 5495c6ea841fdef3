import Foundation
import Synchronization

/// A normalised BCP-47 language identifier such as `ru`, `zh-Hans`, `sr-Latn` or `pt-PT`.
///
/// Normalisation (ours, built on Foundation's `Locale.Language`): ISO 639-2/3 codes become their
/// two-letter form (`rus` → `ru`), casing is canonical, an explicit script is kept (`zh-Hans`,
/// `sr-Cyrl`), and a region is kept only when it is not the language's likely region (`ru-RU` → `ru`,
/// `pt-BR` → `pt` because CLDR's default Portuguese is Brazilian, `pt-PT` stays). Unknown codes are
/// an error, never a guess.
public struct LanguageCode: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The normalised identifier, e.g. `zh-Hans`.
    public let identifier: String

    /// Normalises `raw`, throwing when it is not a known ISO 639 language.
    public init(_ raw: String) throws(LanguageCodeError) {
        identifier = try Self.normalise(raw)
    }

    /// Wraps an identifier that is already normalised (e.g. read back from our own reports).
    public init(normalised identifier: String) {
        self.identifier = identifier
    }

    public var description: String { identifier }

    /// The primary language subtag (`zh` for `zh-Hans`).
    public var language: String {
        String(identifier.prefix { $0 != "-" })
    }

    /// Language and likely script, e.g. `sr-Cyrl` for `sr`; the basis of equivalence. Worked out once per identifier
    /// in a process: asking `Locale` is tens of microseconds, and a run's reports ask it for every item.
    public var languageAndScript: String {
        if let known = Self.scripts.withLock({ $0[identifier] }) { return known }
        let script = Locale.Language(identifier: identifier).script?.identifier ?? ""
        let value = script.isEmpty ? language : "\(language)-\(script)"
        Self.scripts.withLock { $0[identifier] = value }
        return value
    }

    private static let scripts = Mutex<[String: String]>([:])

    /// Locale equivalence: same language and (likely) script. `en-AU` ≈ `en`, `sr` ≈ `sr-Cyrl`,
    /// `zh` ≈ `zh-Hans`, but `sr-Latn` ≉ `sr`.
    public func isEquivalent(to other: LanguageCode) -> Bool {
        identifier == other.identifier || languageAndScript == other.languageAndScript
    }

    /// English display name, e.g. "Ukrainian" or "Chinese (Simplified)".
    public var englishName: String {
        Locale(identifier: "en").localizedString(forIdentifier: identifier) ?? identifier
    }

    /// The language's own name for itself, e.g. "русский".
    public var nativeName: String {
        Locale(identifier: identifier).localizedString(forIdentifier: identifier) ?? englishName
    }

    public static func < (lhs: LanguageCode, rhs: LanguageCode) -> Bool {
        lhs.identifier < rhs.identifier
    }

    static func normalise(_ raw: String) throws(LanguageCodeError) -> String {
        let trimmed = raw.trimmingCharacters(in: .whitespaces)
        let subtags = trimmed.replacingOccurrences(of: "_", with: "-").split(separator: "-", omittingEmptySubsequences: false)
        guard let first = subtags.first, (2...3).contains(first.count), first.allSatisfy(\.isASCIILetter) else {
            throw .unknown(raw)
        }
        let code = Locale.LanguageCode(first.lowercased())
        guard code.isISOLanguage, code.identifier != "und" else { throw .unknown(raw) }
        let language = code.identifier(.alpha2) ?? code.identifier
        var script: String?
        var region: String?
        for subtag in subtags.dropFirst() {
            if subtag.count == 4, subtag.allSatisfy(\.isASCIILetter), script == nil, region == nil {
                script = subtag.prefix(1).uppercased() + subtag.dropFirst().lowercased()
            } else if (subtag.count == 2 && subtag.allSatisfy(\.isASCIILetter)) || (subtag.count == 3 && subtag.allSatisfy(\.isNumber)), region == nil {
                region = subtag.uppercased()
            } else {
                throw .unsupportedSubtag(raw, String(subtag))
            }
        }
        var result = language
        if let script { result += "-\(script)" }
        if let region {
            let likely = Locale.Language(identifier: result).maximalIdentifier
            if !likely.hasSuffix("-\(region)") { result += "-\(region)" }
        }
        return result
    }
}

extension LanguageCode: Codable {
    public init(from decoder: Decoder) throws {
        let raw = try decoder.singleValueContainer().decode(String.self)
        try self.init(raw)
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(identifier)
    }
}

/// Why a language code was rejected.
public enum LanguageCodeError: Error, Equatable, Sendable, CustomStringConvertible {
    case unknown(String)
    case unsupportedSubtag(String, String)

    public var description: String {
        switch self {
        case .unknown(let raw):
            "unknown language code '\(raw)' (use an ISO 639 code such as 'ru', 'uk' or 'zh-Hans')"
        case .unsupportedSubtag(let raw, let subtag):
            "language code '\(raw)' has an unsupported subtag '\(subtag)' (use language[-Script][-REGION])"
        }
    }
}

extension Character {
    var isASCIILetter: Bool { isASCII && isLetter }
}
