/// What answers a detection config (and judges a reply's language): the built-in recognizer, a command that reads
/// a text per line and writes an answer per line (`exec:<command>`), Apple's `NLLanguageRecognizer` (Apple platforms
/// only), or the oracle: no detector, the item's true language (the reference the served funnel measures detection
/// against). Configs and flags name it as `spec`.
public enum DetectorKind: Hashable, Sendable {
    case builtin
    case exec(command: String)
    case apple
    case oracle

    static let execPrefix = "exec:"

    /// The kind a spec names; nil for anything else.
    package init?(_ spec: String) {
        switch spec {
        case "builtin": self = .builtin
        case "apple": self = .apple
        case "oracle": self = .oracle
        case let spec where spec.hasPrefix(Self.execPrefix): self = .exec(command: String(spec.dropFirst(Self.execPrefix.count)))
        default: return nil
        }
    }

    public var spec: String {
        switch self {
        case .builtin: "builtin"
        case .exec(let command): Self.execPrefix + command
        case .apple: "apple"
        case .oracle: "oracle"
        }
    }

    /// Whether replies' language may be judged by it: the built-in recognizer or a command.
    package var canJudge: Bool { self == .builtin || isExec }

    package var isExec: Bool { if case .exec = self { true } else { false } }
}
