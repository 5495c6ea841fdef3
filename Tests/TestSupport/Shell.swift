import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A child process with its own working directory and environment, run to its end with its output captured (in files
/// under the temporary directory, so a chatty child cannot fill a pipe).
public enum Shell {
    public struct Result: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
    }

    public static func run(_ executable: String, _ arguments: [String], in directory: URL, environment: [String: String]) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = directory
        process.environment = environment
        let scratch = FileManager.default.temporaryDirectory
        let out = scratch.appendingPathComponent("langbench-shell-\(UUID().uuidString).out")
        let err = scratch.appendingPathComponent("langbench-shell-\(UUID().uuidString).err")
        FileManager.default.createFile(atPath: out.path, contents: nil)
        FileManager.default.createFile(atPath: err.path, contents: nil)
        // try?: a scratch file left in the temporary directory harms nothing; the child's result is what counts.
        defer { try? FileManager.default.removeItem(at: out); try? FileManager.default.removeItem(at: err) }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        try process.runWithNoSignalBlocked()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: try String(contentsOf: out, encoding: .utf8),
                      stderr: try String(contentsOf: err, encoding: .utf8))
    }
}

extension Process {
    /// Starts the process as a shell would, with no signal blocked: an async test runs on a worker thread that blocks
    /// most signals, and a child inherits that mask (a llama-server started under it ignores the SIGTERM meant to stop it).
    public func runWithNoSignalBlocked() throws {
        var empty = sigset_t(), saved = sigset_t()
        sigemptyset(&empty)
        pthread_sigmask(SIG_SETMASK, &empty, &saved)
        defer { pthread_sigmask(SIG_SETMASK, &saved, nil) }
        try run()
    }
}
