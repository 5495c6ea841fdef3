import Support
import Foundation

/// What a running command may touch besides its arguments: output streams, environment, progress.
package struct CommandContext: Sendable {
    package var stdout: any TextSink
    package var stderr: any TextSink
    package var environment: [String: String]
    /// Whether stderr is a terminal (a redrawn bar) or not (plain periodic lines).
    package var stderrIsTerminal: Bool
    /// The command line as the user typed it (`langbench detect …`), recorded in provenance; set by `CommandRunner`.
    package var commandLine: [String] = []

    package init(stdout: any TextSink, stderr: any TextSink, environment: [String: String] = [:], stderrIsTerminal: Bool = false) {
        self.stdout = stdout
        self.stderr = stderr
        self.environment = environment
        self.stderrIsTerminal = stderrIsTerminal
    }

    /// The context of the real process.
    package static var process: CommandContext {
        CommandContext(stdout: FileDescriptorSink.standardOutput, stderr: FileDescriptorSink.standardError,
                       environment: ProcessInfo.processInfo.environment, stderrIsTerminal: isatty(2) != 0)
    }

    /// A progress observer for long work, or a silent one when `quiet`.
    package func progress(quiet: Bool) -> any ProgressObserving {
        quiet ? SilentProgress() : ProgressReporter(sink: stderr, isTerminal: stderrIsTerminal)
    }

    /// A note for the user on stderr (never mixed into results on stdout).
    package func note(_ text: String) {
        stderr.write(text.hasSuffix("\n") ? text : text + "\n")
    }
}
