/// What answers a detection config (and judges a reply's language): the built-in recognizer, or a command that reads
/// a text per line and writes an answer per line (`exec:<command>`). Configs and flags name it as `spec`.
public enum DetectorKind: Hashable, Sendable {
    case builtin
    case exec(command: String)

    static let execPrefix = "exec:"

    /// The kind a spec names; nil for anything else.
    package init?(_ spec: String) {
        if spec == DetectorKind.builtin.spec {
            self = .builtin
        } else if spec.hasPrefix(Self.execPrefix) {
            self = .exec(command: String(spec.dropFirst(Self.execPrefix.count)))
        } else {
            return nil
        }
    }

    public var spec: String {
        switch self {
        case .builtin: "builtin"
        case .exec(let command): Self.execPrefix + command
        }
    }

    package var isExec: Bool { if case .exec = self { true } else { false } }
}
