import Support
import Foundation

/// A benchmark step measured in a child process of `langbench` (so its start, its CPU and its peak memory are its
/// own): the child prints one JSON object, decoded here into the same `Codable` figures the library renders.
package struct ChildProbe: Sendable {
    package let executable: String

    package init(executable: String) {
        self.executable = executable
    }

    /// The probe for this process's own executable, or `LANGBENCH_EXECUTABLE` in `environment` (a test, whose
    /// process is the test runner, names the `langbench` it builds).
    package static func current(environment: [String: String]) throws(BenchmarkError) -> ChildProbe {
        guard let path = environment["LANGBENCH_EXECUTABLE"] ?? Bundle.main.executablePath else { throw .noExecutable }
        return ChildProbe(executable: path)
    }

    /// Runs `arguments` and decodes what it prints as `Figures`; returns them with the wall time, process start included.
    package func measure<Figures: Decodable>(_ arguments: [String], as figures: Figures.Type) throws -> (figures: Figures, wallSeconds: Double) {
        let start = ContinuousClock.now
        let child = try Started(executable: executable, arguments: arguments, captureOutput: true)
        let output = child.finish()
        let wall = (ContinuousClock.now - start).seconds
        try child.check(output)
        return (try child.decode(Figures.self, from: output), wall)
    }

    /// `measure` in `count` children started together (all started before any is waited for).
    package func measureTogether<Figures: Decodable>(_ count: Int, _ arguments: [String], as figures: Figures.Type) throws -> [Figures] {
        let children = try (0..<count).map { _ in try Started(executable: executable, arguments: arguments, captureOutput: true) }
        return try children.map { child in
            let output = child.finish()
            try child.check(output)
            return try child.decode(Figures.self, from: output)
        }
    }

    /// Runs `arguments` for their effect (a `detect` run); returns the wall time.
    package func run(_ arguments: [String]) throws -> Double {
        let start = ContinuousClock.now
        let child = try Started(executable: executable, arguments: arguments, captureOutput: false)
        try child.check(child.finish())
        return (ContinuousClock.now - start).seconds
    }

    /// A started child: stdout through a pipe (or discarded), stderr into a file whose tail a failure quotes (a file,
    /// not a second pipe: a child that fills one pipe while this process drains the other would never finish).
    private struct Started {
        let process = Process()
        let output: Pipe?
        let errors: URL
        var command: String { ([process.executableURL?.lastPathComponent ?? "langbench"] + (process.arguments ?? [])).joined(separator: " ") }

        init(executable: String, arguments: [String], captureOutput: Bool) throws {
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
            output = captureOutput ? Pipe() : nil
            process.standardOutput = output ?? FileHandle.nullDevice
            errors = FileManager.default.temporaryDirectory.appendingPathComponent("langbench-probe-\(UUID().uuidString).stderr")
            _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
            process.standardError = try FileHandle(forWritingTo: errors)
            do { try process.run() } catch {
                throw BenchmarkError.childFailed(command: command, status: -1, stderrTail: "could not start: \(error.localizedDescription)")
            }
        }

        /// Waits for the child; returns what it printed.
        func finish() -> String {
            let text = output.map { String(decoding: $0.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self) } ?? ""
            process.waitUntilExit()
            return text
        }

        /// What the child printed as `Figures`; a child that exited 0 without them failed all the same.
        func decode<Figures: Decodable>(_ figures: Figures.Type, from output: String) throws -> Figures {
            do { return try JSONDecoder().decode(Figures.self, from: Data(output.utf8)) } catch {
                throw BenchmarkError.childFailed(command: command, status: 0,
                                                 stderrTail: "printed no \(Figures.self) (\(JSONErrorText.describe(error))): \(output.suffix(200))")
            }
        }

        /// Throws `childFailed` with the end of its stderr unless it exited 0; removes the stderr file either way.
        func check(_ output: String) throws {
            // try?: a scratch file left in the temporary directory harms nothing; the child's outcome is what counts.
            defer { try? FileManager.default.removeItem(at: errors) }
            guard process.terminationStatus == 0 else {
                // try?: an unreadable stderr file leaves the message without its tail, not without the failure.
                let tail = (try? String(contentsOf: errors, encoding: .utf8)).map { String($0.suffix(BenchmarkError.tailLength)) } ?? ""
                throw BenchmarkError.childFailed(command: command, status: process.terminationStatus, stderrTail: tail)
            }
        }
    }
}

/// A benchmark that could not measure: its child failed (the figures it would have given do not exist).
package enum BenchmarkError: Error, Equatable, CustomStringConvertible {
    case childFailed(command: String, status: Int32, stderrTail: String)
    case noExecutable

    /// How much of a failed child's stderr a message quotes.
    static let tailLength = 400

    package var description: String {
        switch self {
        case .childFailed(let command, let status, let tail):
            "the benchmark's child `\(command)` failed (exit \(status))" + (tail.isEmpty ? "" : ": \(tail.trimmingCharacters(in: .whitespacesAndNewlines))")
        case .noExecutable:
            "cannot find the langbench executable to run a benchmark step in a child process; set LANGBENCH_EXECUTABLE"
        }
    }
}
