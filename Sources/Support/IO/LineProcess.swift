import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A child process spoken to in lines over stdin/stdout (`/bin/sh -c "exec <command>"`). Its stderr is discarded:
/// what a child writes may quote a secret from its environment or the text it was sent, and nothing it says is
/// recorded. The external detector and the `exec:` translator are each one of these.
///
/// The child leads a process group of its own, and whatever it starts stays in that group: stopping it (at a
/// timeout, at the end, on SIGINT/SIGTERM/SIGHUP of this process through `ServerReaper`) signals the whole group,
/// and a watchdog does the same when this process dies by any means, SIGKILL included.
package struct LineProcess {
    package let process: Process
    private let input: FileHandle
    private let output: LineChannel
    private let watchdog: ChildWatchdog?
    private let reaperToken: ServerReaper.Token

    /// Starts `command`. Throws `LineProcessError.cannotStart` when the shell cannot be run.
    package static func start(_ command: String) throws -> LineProcess {
        // Writing to a child that already exited (a missing command, a crash) must fail that request
        // with EPIPE, not kill this process with SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "exec \(command)"]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        do {
            // Unblocked: a child started from a worker thread would inherit its blocked SIGTERM.
            try withUnblockedSignals { try process.run() }
        } catch {
            throw LineProcessError.cannotStart((error as NSError).localizedDescription)
        }
        let pid = process.processIdentifier
        // Foundation starts the child in a group of its own on Linux; where it does not, only the child is signalled.
        let leadsGroup = getpgid(pid) == pid
        let token = ServerReaper.register(processID: pid) { Self.deliver(SIGKILL, to: pid, group: leadsGroup) }
        let watchdog: ChildWatchdog?
        do { watchdog = try ChildWatchdog.launch(guarding: pid, group: leadsGroup) } catch {
            Self.deliver(SIGKILL, to: pid, group: leadsGroup)
            ServerReaper.unregister(token)
            throw LineProcessError.cannotStart(error.description)
        }
        return LineProcess(process: process, input: input.fileHandleForWriting, output: LineChannel(reading: output.fileHandleForReading),
                           watchdog: watchdog, reaperToken: token, leadsGroup: leadsGroup)
    }

    /// Whether the child leads its own process group (signals go to the group).
    private let leadsGroup: Bool

    private static func deliver(_ number: Int32, to pid: Int32, group: Bool) {
        _ = group ? kill(-pid, number) : kill(pid, number)
    }

    package var isRunning: Bool { process.isRunning }

    /// Writes `request` as one JSON line; throws `LineProcessError.died` when the child is gone.
    package func send(_ request: some Encodable) async throws {
        let line = try JSONOutput.line(request)
        do {
            try POSIXIO.write(Data(line.utf8), to: input.fileDescriptor)
        } catch {
            throw LineProcessError.died(await exitDescription())
        }
    }

    /// The next line it printed; nil once it closed its output. Throws `LineChannelTimeout` when none comes in time.
    package func next(timeout: Duration) async throws -> String? {
        try await output.next(timeout: timeout)
    }

    /// Closes its input, then SIGTERM to its group, and SIGKILL to the group half a second later (or at once when the
    /// child is gone: what it started may still run).
    package func stop() async {
        try? input.close()  // the child may already be gone; closing is only a courtesy
        let pid = process.processIdentifier
        if process.isRunning {
            Self.deliver(SIGTERM, to: pid, group: leadsGroup)
            // Task.sleep throws only on cancellation, which should not stop the clean-up.
            for _ in 0..<20 where process.isRunning { try? await Task.sleep(for: .milliseconds(25)) }
        }
        Self.deliver(SIGKILL, to: pid, group: leadsGroup)  // the group may outlive its leader; no group left is harmless
        watchdog?.release()
        ServerReaper.unregister(reaperToken)
    }

    /// "exited with status N", "was killed by signal N" or "closed its output": the kind of the end, never what the
    /// child wrote (its stderr may quote a secret from its environment or the text it was sent).
    package func exitDescription() async -> String {
        // Best effort for the message: a cancelled sleep just ends the wait.
        for _ in 0..<40 where process.isRunning { try? await Task.sleep(for: .milliseconds(25)) }
        if process.isRunning { return "closed its output" }
        return process.terminationReason == .uncaughtSignal
            ? "was killed by signal \(process.terminationStatus)" : "exited with status \(process.terminationStatus)"
    }
}

/// Why a line-protocol child could not be used.
package enum LineProcessError: Error, CustomStringConvertible {
    case cannotStart(String)
    case died(String)

    package var description: String {
        switch self {
        case .cannotStart(let reason): "cannot start (\(reason))"
        case .died(let detail): "the process \(detail)"
        }
    }
}
