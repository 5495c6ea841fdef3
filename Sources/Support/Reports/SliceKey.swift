/// The items a figure is computed over, as reports and JSON write it: `all`, `lang=<code>`, `tag=<tag>` or
/// `length=<bucket>`. Built and read only here, never by a string prefix.
package enum SliceKey: Hashable, Sendable, CustomStringConvertible {
    case all
    case lang(String)
    case tag(String)
    case length(String)

    package enum Kind: String, Sendable, CaseIterable { case lang, tag, length }

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
        }
    }

    package var kind: Kind? {
        switch self {
        case .all: nil
        case .lang: .lang
        case .tag: .tag
        case .length: .length
        }
    }

    /// The part after `kind=` (`all` for every item).
    package var value: String {
        switch self {
        case .all: "all"
        case .lang(let value), .tag(let value), .length(let value): value
        }
    }

    /// The language of a `lang=` slice.
    package var language: String? { if case .lang(let code) = self { code } else { nil } }

    package var description: String { kind.map { "\($0.rawValue)=\(value)" } ?? "all" }
}
