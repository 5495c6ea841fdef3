import Support
import Foundation
import Corpus

/// How a detection config narrows the candidate languages.
///
/// Written as a list (`["ru","uk"]`) or an expression of `+`-joined terms, the seed architecture's
/// "model-supported + the app's languages + the device's": `profile:supported + ru + device:en,uk`.
/// Terms: `profile:supported` (the model profile's supported languages), `device:a,b` or `app:a,b`
/// (explicit lists, named for the reader), or language codes.
public enum CandidateSpec: Sendable, Hashable {
    case none
    case list([LanguageCode])
    case expression(String)

    /// The candidate set, or nil for "no constraint".
    package func resolve(supported: [LanguageCode]) throws(ConfigurationError) -> [LanguageCode]? {
        switch self {
        case .none: return nil
        case .list(let codes):
            try check()
            return Self.unique(codes)
        case .expression(let text):
            var codes: [LanguageCode] = []
            for term in try Self.terms(text) {
                switch term {
                case .profileSupported: codes += supported
                case .codes(let list): codes += list
                }
            }
            return Self.unique(codes)
        }
    }

    /// Throws unless the spec names at least one language and every term of an expression is well formed
    /// (no empty term as in `a + + b`, no `app:` without codes): a spec that names nothing would run
    /// unconstrained while the report shows a constraint.
    package func check() throws(ConfigurationError) {
        switch self {
        case .none: return
        case .list(let codes):
            if codes.isEmpty { throw Self.invalid("[]", Self.namesNothing) }
        case .expression(let text): _ = try Self.terms(text)
        }
    }

    /// Whether the set depends on the model profile (`profile:supported`).
    package var usesProfile: Bool {
        guard case .expression(let text) = self else { return false }
        return text.split(separator: "+").contains { $0.trimmingCharacters(in: .whitespaces) == "profile:supported" }
    }

    private enum Term { case profileSupported, codes([LanguageCode]) }

    static let namesNothing = "names no language; leave candidates out (or write \"none\") for unconstrained detection"

    private static func terms(_ text: String) throws(ConfigurationError) -> [Term] {
        if text.trimmingCharacters(in: .whitespaces).isEmpty { throw invalid(text, namesNothing) }
        var terms: [Term] = []
        for raw in text.components(separatedBy: "+") {
            let term = raw.trimmingCharacters(in: .whitespaces)
            if term.isEmpty { throw invalid(text, "has an empty term; join terms with one '+', e.g. profile:supported + ru + device:en,uk") }
            if term == "profile:supported" {
                terms.append(.profileSupported)
                continue
            }
            var list = term
            for prefix in ["device:", "app:"] where term.hasPrefix(prefix) { list = String(term.dropFirst(prefix.count)) }
            if list.contains(":") {
                throw invalid(text, "unknown term '\(term)'; use profile:supported, device:<codes>, app:<codes> or language codes joined by +")
            }
            let codes = list.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            var languages: [LanguageCode] = []
            if codes.contains(where: \.isEmpty) {
                throw invalid(text, "term '\(term)' has an empty language code; write codes separated by single commas, e.g. app:ru or device:en,uk")
            }
            for code in codes {
                do { languages.append(try LanguageCode(code)) } catch { throw invalid(text, error.description) }
            }
            terms.append(.codes(languages))
        }
        return terms
    }

    private static func invalid(_ value: String, _ reason: String) -> ConfigurationError {
        .invalidValue(name: "candidates", value: value, reason: reason)
    }

    /// How the spec reads in a report.
    package var description: String {
        switch self {
        case .none: "none"
        case .list(let codes): codes.map(\.identifier).joined(separator: ",")
        case .expression(let text): text
        }
    }

    private static func unique(_ codes: [LanguageCode]) -> [LanguageCode] {
        var seen = Set<LanguageCode>()
        return codes.filter { seen.insert($0).inserted }
    }
}

extension CandidateSpec: Codable {
    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .none
        } else if let text = try? container.decode(String.self) {  // a list is the other accepted shape
            // An empty string stays an (empty) expression, which `check` refuses: only "none" or null mean none.
            self = text == "none" ? .none : .expression(text)
        } else {
            self = .list(try container.decode([LanguageCode].self))
        }
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .none: try container.encodeNil()
        case .list(let codes): try container.encode(codes)
        case .expression(let text): try container.encode(text)
        }
    }
}
