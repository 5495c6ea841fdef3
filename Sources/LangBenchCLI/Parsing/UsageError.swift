/// A wrong command line: exits 64 with the message, the command's usage line and a pointer to --help.
package struct UsageError: Error, Sendable, CustomStringConvertible {
    package var message: String
    /// Full command path, e.g. "langbench corpus validate".
    package var command: String

    package init(_ message: String, command: String) {
        self.message = message
        self.command = command
    }

    package var description: String { message }
}

/// Thrown by the parser when `--help` is asked for; not an error for the user.
struct HelpRequest: Error {
    var text: String
}
