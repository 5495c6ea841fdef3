/// The items a figure is computed over, as reports and JSON write it: `all`, `lang=<code>`, `tag=<tag>` or
/// `length=<bucket>`. Built and read only here, never by a string prefix.
package enum SliceKey: Hashable, Sendable, CustomStringConvertible {
    case all
    case lang(String)
    case tag(String)
    case length(String)
    /// A language, or a length bucket, within the items of one corpus tag (`corpus:<name>`): `corpus-lang=outside:ru`.
    case corpusLang(String)
    case corpusLength(String)

    package enum Kind: String, Sendable, CaseIterable { case lang, tag, length, corpusLang = "corpus-lang", corpusLength = "corpus-length" }

    /// The slice a key names; nil for a key of no kind.
    package init?(_ key: String) {
        if key == "all" {
            self = .all
            return
        }
        guard let kind = Kind.allCases.first(where: { key.hasPrefix($0.rawValue + "=") }) else { return nil }
        self.init(kind, String(key.dropFirst(kind.rawValue.count + 1)))
    }

    package init(_ kind: Kind, _ value: String) {
        switch kind {
        case .lang: self = .lang(value)
        case .tag: self = .tag(value)
        case .length: self = .length(value)
        case .corpusLang: self = .corpusLang(value)
        case .corpusLength: self = .corpusLength(value)
        }
    }

    package var kind: Kind? {
        switch self {
        case .all: nil
        case .lang: .lang
        case .tag: .tag
        case .length: .length
        case .corpusLang: .corpusLang
        case .corpusLength: .corpusLength
        }
    }

    /// The part after `kind=` (`all` for every item).
    package var value: String {
        switch self {
        case .all: "all"
        case .lang(let value), .tag(let value), .length(let value), .corpusLang(let value), .corpusLength(let value): value
        }
    }

    /// The language of a `lang=` slice.
    package var language: String? { if case .lang(let code) = self { code } else { nil } }

    /// The slice of `key` (a language code or length bucket) within the items tagged `corpus:<corpus>`.
    package static func within(corpus: String, _ kind: Kind, _ key: String) -> SliceKey {
        SliceKey(kind == .length ? .corpusLength : .corpusLang, "\(corpus):\(key)")
    }

    package var description: String { kind.map { "\($0.rawValue)=\(value)" } ?? "all" }
}
