/// A secret sent as `Authorization: Bearer …`. It prints, dumps and reflects as a placeholder, so
/// interpolating it (or anything holding it) into a report, log or error cannot leak it.
public struct APIKey: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    let value: String

    public init(_ value: String) {
        self.value = value
    }

    /// The key in `environment[name]`; nil when the variable is unset or empty.
    public static func from(environment: [String: String], name: String) -> APIKey? {
        guard let value = environment[name], !value.isEmpty else { return nil }
        return APIKey(value)
    }

    public var description: String { "<redacted>" }
    public var debugDescription: String { "<redacted>" }
    public var customMirror: Mirror { Mirror(self, children: [:]) }

    /// `text` with every occurrence of the key replaced: a server may echo the request headers in an error body.
    func redact(_ text: String) -> String {
        text.replacingOccurrences(of: value, with: "<redacted>")
    }
}
