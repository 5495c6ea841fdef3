import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A tiny `/bin/sh` sentinel that stops the server when this process dies by any means, SIGKILL included.
///
/// It blocks reading a pipe whose only writer is this process. When the harness exits — normally,
/// by a signal it cannot catch, or by crashing — the kernel closes the pipe, `read` sees end-of-file
/// and the sentinel sends SIGTERM, then SIGKILL, to the server. A normal stop writes `release` first.
/// This works on Linux and macOS alike, unlike `PR_SET_PDEATHSIG`, which is also tied to the thread
/// that spawned the child rather than to the process.
struct ServerWatchdog: Sendable {
    private let writeEnd: Int32
    let processID: Int32

    static let script = """
        trap '' INT TERM HUP
        IFS= read -r line || line=
        [ "$line" = release ] && exit 0
        kill -TERM "$1" 2>/dev/null || exit 0
        n=0
        while kill -0 "$1" 2>/dev/null; do
          n=$((n + 1))
          if [ "$n" -gt 50 ]; then kill -KILL "$1" 2>/dev/null; exit 0; fi
          sleep 0.1
        done
        """

    /// Starts a sentinel for the process `serverID`.
    static func launch(guarding serverID: Int32) throws -> ServerWatchdog {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else {
            throw BackendError.startFailed(reason: "pipe() failed: \(String(cString: strerror(errno)))",
                                           logTail: [], logFile: nil)
        }
        // Only this process may hold the writing end, or the sentinel would never see end-of-file.
        _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script, "langbench-watchdog", String(serverID)]
        process.standardInput = FileHandle(fileDescriptor: ends[0], closeOnDealloc: false)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do {
            try withUnblockedSignals { try process.run() }
        } catch {
            close(ends[0])
            close(ends[1])
            throw BackendError.startFailed(reason: "could not start the watchdog: \(error)", logTail: [], logFile: nil)
        }
        close(ends[0])
        return ServerWatchdog(writeEnd: ends[1], processID: process.processIdentifier)
    }

    /// The server was stopped by us: let the sentinel exit without signalling a pid that may be reused.
    func release() {
        let message = Array("release\n".utf8)
        _ = message.withUnsafeBytes { write(writeEnd, $0.baseAddress, $0.count) }
        close(writeEnd)
    }
}
