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
    public func resolve(supported: [LanguageCode]) throws -> [LanguageCode]? {
        switch self {
        case .none: return nil
        case .list(let codes): return Self.unique(codes)
        case .expression(let text):
            var codes: [LanguageCode] = []
            for term in text.split(separator: "+").map({ $0.trimmingCharacters(in: .whitespaces) }) {
                if term == "profile:supported" {
                    codes += supported
                    continue
                }
                var list = term
                for prefix in ["device:", "app:"] where term.hasPrefix(prefix) { list = String(term.dropFirst(prefix.count)) }
                if list.contains(":") {
                    throw ConfigurationError.invalidValue(name: "candidates", value: text,
                        reason: "unknown term '\(term)'; use profile:supported, device:<codes>, app:<codes> or language codes joined by +")
                }
                for code in list.split(separator: ",") {
                    do {
                        codes.append(try LanguageCode(code.trimmingCharacters(in: .whitespaces)))
                    } catch {
                        throw ConfigurationError.invalidValue(name: "candidates", value: text, reason: error.description)
                    }
                }
            }
            return Self.unique(codes)
        }
    }

    /// How the spec reads in a report.
    public var description: String {
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
            self = text == "none" || text.isEmpty ? .none : .expression(text)
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
