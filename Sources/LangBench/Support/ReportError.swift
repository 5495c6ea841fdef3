/// Writing an output file failed.
public enum ReportError: Error, Sendable, CustomStringConvertible {
    case cannotWrite(path: String, reason: String)

    public var description: String {
        switch self {
        case .cannotWrite(let path, let reason):
            "cannot write \(path) (\(reason)); check the --out directory exists and is writable"
        }
    }
}
