/// A configuration file or option value that cannot be used.
public enum ConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    case unreadable(path: String, reason: String)
    case invalid(path: String, reason: String)
    /// Not well-formed JSON: the 1-based line and column (in characters) of the first problem.
    case syntax(path: String, line: Int, column: Int, reason: String)
    case unknownKeys(path: String, keys: [String], allowed: [String])
    case unsupportedSchemaVersion(path: String, found: Int, supported: Int)
    case invalidValue(name: String, value: String, reason: String)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason): "\(path): cannot read (\(reason))"
        case .invalid(let path, let reason): "\(path): \(reason)"
        case .syntax(let path, let line, let column, let reason): "\(path):\(line):\(column): invalid JSON: \(reason)"
        case .unknownKeys(let path, let keys, let allowed):
            "\(path): unknown key(s) \(keys.map { "'\($0)'" }.joined(separator: ", ")); allowed: \(allowed.joined(separator: ", "))"
        case .unsupportedSchemaVersion(let path, let found, let supported):
            "\(path): schema_version \(found) is not supported (this LangBench reads \(supported))"
        case .invalidValue(let name, let value, let reason): "\(name) '\(value)': \(reason)"
        }
    }
}
