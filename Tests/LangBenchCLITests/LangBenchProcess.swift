import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The real `langbench` executable run as a child process, for the tests that send it real signals or
/// kill its llama-server: an in-process command cannot be signalled without signalling the test runner.
struct LangBenchProcess {
    let process: Process
    let stderrFile: URL

    /// Starts `langbench <arguments>` with the test process's environment (llama-server and model paths).
    static func start(_ arguments: [String], in directory: URL) throws -> LangBenchProcess {
        let stderrFile = directory.appendingPathComponent("langbench.stderr")
        try Data().write(to: stderrFile)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try LangBenchExecutable.path())
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: stderrFile)
        try process.runWithNoSignalBlocked()
        return LangBenchProcess(process: process, stderrFile: stderrFile)
    }

    var stderr: String { (try? String(contentsOf: stderrFile, encoding: .utf8)) ?? "" }

    /// Waits for the process to end (killing it after `seconds`); true when it ended by itself.
    func waitForExit(within seconds: Double) async -> Bool {
        let ended = await poll(within: seconds) { !process.isRunning }
        if !ended { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() }
        return ended
    }

    /// The pids of this process's children named `name` (from /proc: Linux only, as are these tests' servers).
    func children(named name: String) -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap(Int32.init).filter { pid in
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")") else { return false }
            let comm = stat[stat.index(after: open)..<close]
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            // After the name: state, ppid.
            return comm == name && fields.count > 2 && fields[0] != "Z" && Int32(fields[1]) == process.processIdentifier
        }
    }
}

/// Polls `condition` every 50 ms for up to `seconds`.
func poll(within seconds: Double, _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
    while ContinuousClock.now < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(50))
    }
    return condition()
}
