import Foundation
import Support
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A launched `llama-server` process with its watchdog, stoppable exactly once from any thread.
///
/// A class with a lock rather than an actor: signal handlers and `atexit` must stop it synchronously.
final class ManagedProcess: @unchecked Sendable {
    // `Process` is only used through its thread-safe members (pid, isRunning, termination status).
    private let process: Process
    private let watchdog: ChildWatchdog
    private let stopped = Mutex(false)
    private var reaperToken: ServerReaper.Token?

    init(process: Process, watchdog: ChildWatchdog) {
        self.process = process
        self.watchdog = watchdog
        reaperToken = ServerReaper.register(processID: process.processIdentifier) { [weak self] in self?.stop() }
    }

    /// Launches `executable` with stdout and stderr into `log` (`logFile`), guarded by a watchdog.
    static func launch(_ executable: String, arguments: [String], log: FileHandle, logFile: URL) throws -> ManagedProcess {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = log
        process.standardError = log
        do {
            try withUnblockedSignals { try process.run() }
        } catch {
            throw BackendError.startFailed(reason: "could not launch \(executable): \(error.localizedDescription)", logTail: [], logFile: logFile.path)
        }
        let watchdog: ChildWatchdog
        do {
            watchdog = try ChildWatchdog.launch(guarding: process.processIdentifier)
        } catch {
            process.terminate()
            process.waitUntilExit()
            throw BackendError.startFailed(reason: error.description, logTail: [], logFile: nil)
        }
        return ManagedProcess(process: process, watchdog: watchdog)
    }

    /// A new, empty `runDirectory/name` open for writing: a started server's log.
    static func createLog(_ name: String, in runDirectory: URL) throws -> (handle: FileHandle, url: URL) {
        let files = FileManager.default
        let url = runDirectory.appendingPathComponent(name)
        do {
            try files.createDirectory(at: runDirectory, withIntermediateDirectories: true)
            guard files.createFile(atPath: url.path, contents: nil) else { throw CocoaError(.fileWriteUnknown) }
            return (try FileHandle(forWritingTo: url), url)
        } catch {
            throw BackendError.startFailed(reason: "cannot write \(url.path): \(error.localizedDescription)", logTail: [], logFile: nil)
        }
    }

    var processID: Int32 { process.processIdentifier }
    var isRunning: Bool { process.isRunning }
    /// Exit status (or signal number) once the process has ended.
    var terminationDescription: String {
        let reason = process.terminationReason == .uncaughtSignal ? "signal" : "status"
        return "\(reason) \(process.terminationStatus)"
    }

    /// SIGTERM, then SIGKILL after `grace` seconds; returns once the process is gone — for every
    /// caller: a second caller (say `atexit` while a signal handler is stopping it) waits for the first.
    func stop(grace: Double = 5) {
        stopped.withLock { done in
            guard !done else { return }
            done = true
            if process.isRunning {
                kill(process.processIdentifier, SIGTERM)
                if !waitForExit(seconds: grace) {
                    kill(process.processIdentifier, SIGKILL)
                    _ = waitForExit(seconds: 5)
                }
            }
            watchdog.release()
        }
        if let reaperToken { ServerReaper.unregister(reaperToken) }
    }

    private func waitForExit(seconds: Double) -> Bool {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while process.isRunning {
            if ContinuousClock.now > deadline { return false }
            usleep(10_000)
        }
        return true
    }
}
