import Foundation
import Testing
import TestSupport

/// The real `langbench` executable as a child process, for tests whose runs must be separate processes
/// (shards run side by side, as on separate machines). It is built beside the test bundle by `swift build`.
struct LangBenchBinary {
    let process: Process
    let stderrFile: URL

    /// Starts `langbench <arguments>` with the test process's environment; its stderr goes to `stderrFile`.
    static func start(_ arguments: [String], stderrFile: URL) throws -> LangBenchBinary {
        try Data().write(to: stderrFile)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try LangBenchExecutable.path())
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: stderrFile)
        try process.run()
        return LangBenchBinary(process: process, stderrFile: stderrFile)
    }

    var stderr: String { (try? String(contentsOf: stderrFile, encoding: .utf8)) ?? "" }

    /// Waits (polling, so no test thread blocks) up to `seconds` for the process to end, killing it after;
    /// its exit status, nil when it had to be killed.
    func exitStatus(within seconds: Double) async -> Int32? {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while process.isRunning && ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(100)) }
        guard !process.isRunning else {
            process.terminate()
            process.waitUntilExit()
            return nil
        }
        return process.terminationReason == .exit ? process.terminationStatus : nil
    }
}
