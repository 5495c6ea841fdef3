/// A wrong command line: exits 64 with the message, the command's usage line and a pointer to --help.
public struct UsageError: Error, Sendable, CustomStringConvertible {
    public var message: String
    /// Full command path, e.g. "langbench corpus validate".
    public var command: String

    public init(_ message: String, command: String) {
        self.message = message
        self.command = command
    }

    public var description: String { message }
}

/// Thrown by the parser when `--help` is asked for; not an error for the user.
struct HelpRequest: Error {
    var text: String
}
