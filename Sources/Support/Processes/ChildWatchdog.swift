import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A tiny `/bin/sh` sentinel that stops a child (a server, or an `exec:` child's whole process group) when this
/// process dies by any means, SIGKILL included.
///
/// It blocks reading a pipe whose only writer is this process. When the harness exits — normally,
/// by a signal it cannot catch, or by crashing — the kernel closes the pipe, `read` sees end-of-file
/// and the sentinel sends SIGTERM, then SIGKILL, to the child. A normal stop writes `release` first.
/// This works on Linux and macOS alike, unlike `PR_SET_PDEATHSIG`, which is also tied to the thread
/// that spawned the child rather than to the process.
package struct ChildWatchdog: Sendable {
    private let writeEnd: Int32
    package let processID: Int32

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

    /// Why a sentinel could not be started.
    package struct StartError: Error, CustomStringConvertible {
        package var description: String
    }

    /// Starts a sentinel for the process `childID`, or for its whole process group when `group` is set (the child leads it).
    package static func launch(guarding childID: Int32, group: Bool = false) throws(StartError) -> ChildWatchdog {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw StartError(description: "pipe() failed: \(String(cString: strerror(errno)))") }
        // Only this process may hold the writing end, or the sentinel would never see end-of-file.
        _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        // `kill -TERM -N` signals process group N.
        process.arguments = ["-c", script, "langbench-watchdog", group ? "-\(childID)" : String(childID)]
        process.standardInput = FileHandle(fileDescriptor: ends[0], closeOnDealloc: false)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do {
            try withUnblockedSignals { try process.run() }
        } catch {
            close(ends[0])
            close(ends[1])
            throw StartError(description: "could not start the watchdog: \(error)")
        }
        close(ends[0])
        return ChildWatchdog(writeEnd: ends[1], processID: process.processIdentifier)
    }

    /// The child was stopped by us: let the sentinel exit without signalling a pid that may be reused.
    package func release() {
        let message = Array("release\n".utf8)
        _ = message.withUnsafeBytes { write(writeEnd, $0.baseAddress, $0.count) }
        close(writeEnd)
    }
}
