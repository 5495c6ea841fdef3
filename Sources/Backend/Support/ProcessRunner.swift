import Support
import Foundation

/// Runs a short-lived helper command to completion and collects what it printed.
enum ProcessRunner {
    struct Output: Sendable {
        let status: Int32
        let standardOutput: String
        let standardError: String
    }

    /// Runs `executable` with `arguments`; kills it and throws after `timeout` seconds.
    /// Output goes to temporary files rather than pipes, so a chatty command cannot block on a full pipe.
    static func run(_ executable: String, _ arguments: [String], timeout: Double) async throws -> Output {
        let files = FileManager.default
        let directory = files.temporaryDirectory.appendingPathComponent("langbench-\(UUID().uuidString)")
        try files.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? files.removeItem(at: directory) }
        let outURL = directory.appendingPathComponent("stdout")
        let errURL = directory.appendingPathComponent("stderr")
        // A failed create surfaces as the throwing FileHandle open below.
        _ = files.createFile(atPath: outURL.path, contents: nil)
        _ = files.createFile(atPath: errURL.path, contents: nil)
        let out = try FileHandle(forWritingTo: outURL)
        let err = try FileHandle(forWritingTo: errURL)
        defer { try? out.close(); try? err.close() }

        let command = ([executable] + arguments).joined(separator: " ")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = out
        process.standardError = err
        do {
            try withUnblockedSignals { try process.run() }
        } catch {
            throw BackendError.commandFailed(command: command, reason: "could not start: \(error.localizedDescription)",
                                             outputTail: [])
        }
        let pid = process.processIdentifier
        // SIGKILL: a child inherits SIG_IGN for SIGINT/SIGTERM once the reaper's handlers are installed.
        let token = ServerReaper.register(processID: pid) { kill(pid, SIGKILL) }
        defer { ServerReaper.unregister(token) }
        let deadline = ContinuousClock.now + .milliseconds(Int(timeout * 1000))
        while process.isRunning {
            if Task.isCancelled {
                kill(pid, SIGKILL)
                awaitKilled(process)
                throw CancellationError()
            }
            if ContinuousClock.now > deadline {
                kill(pid, SIGKILL)
                awaitKilled(process)
                let tail = LogTail.read(errURL, lines: 5)
                throw BackendError.commandFailed(command: command, reason: "did not finish within \(timeout) s",
                                                 outputTail: tail)
            }
            // A cancelled sleep returns early; the check above then ends the command.
            try? await Task.sleep(for: .milliseconds(20))
        }
        return Output(status: process.terminationStatus,
                      standardOutput: String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
                      standardError: String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
    }

    /// Waits at most two seconds for a killed child to be seen gone, never without bound: Foundation has
    /// been seen to miss a child's exit (the child a zombie nobody reaps, `isRunning` true for ever), and
    /// `waitUntilExit` then never returns. A child still seen running is left to the reaper at exit.
    private static func awaitKilled(_ process: Process) {
        let end = ContinuousClock.now + .seconds(2)
        while process.isRunning, ContinuousClock.now < end { usleep(10_000) }
    }
}
