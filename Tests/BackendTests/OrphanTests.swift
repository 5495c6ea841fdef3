import Foundation
import Testing
@testable import Backend

extension IntegrationTests {
    /// Kills a harness process (the helper executable) that launched a server, and checks the
    /// server does not outlive it.
    @Suite struct Orphans {
        @Test(arguments: [
            (SIGTERM, true), (SIGINT, true), (SIGTERM, false), (SIGKILL, true),
        ])
        func killedHarnessLeavesNoServer(signal: Int32, withHandlers: Bool) async throws {
            let paths = try TestBackend.requirePaths()
            let helper = try Self.helperPath()
            let runDirectory = TestBackend.runDirectory("orphan\(signal)\(withHandlers)")
            try FileManager.default.createDirectory(at: runDirectory, withIntermediateDirectories: true)
            let output = runDirectory.appendingPathComponent("helper.out")
            try Data().write(to: output)

            let process = Process()
            process.executableURL = URL(fileURLWithPath: helper)
            process.arguments = [paths.server, paths.model, runDirectory.path]
                + (withHandlers ? [] : ["--without-signal-handlers"])
            process.standardOutput = try FileHandle(forWritingTo: output)
            process.standardError = process.standardOutput
            try process.run()
            defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }

            var serverPID: Int32 = 0
            let started = await eventually(within: 60) {
                let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
                guard let line = text.split(separator: "\n").first, let pid = Int32(line) else { return !process.isRunning }
                serverPID = pid
                return true
            }
            let helperOutput = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
            try #require(started && serverPID > 0, "helper did not report a server pid: \(helperOutput)")
            defer { if !processIsGone(serverPID) { kill(serverPID, SIGKILL) } }
            let command = try String(contentsOfFile: "/proc/\(serverPID)/comm", encoding: .utf8)
            #expect(command.hasPrefix("llama-server"))

            kill(process.processIdentifier, signal)
            let helperExited = await eventually(within: 15) { !process.isRunning }
            #expect(helperExited)
            #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == signal,
                    "the harness still dies of the signal it got")
            if withHandlers && signal != SIGKILL {
                #expect(processIsGone(serverPID), "the handler stops the server before the harness exits")
            }
            let gone = await eventually(within: 10) { processIsGone(serverPID) }
            #expect(gone, "llama-server \(serverPID) outlived its harness")
        }

        /// The helper is built next to the test bundle (`swift build --build-tests`).
        static func helperPath() throws -> String {
            if let path = ProcessInfo.processInfo.environment["LANGBENCH_TEST_HELPER"] { return path }
            var directory = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            for _ in 0..<5 {
                directory = directory.deletingLastPathComponent()
                let candidate = directory.appendingPathComponent("llama-backend-test-helper").path
                if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            }
            try #require(Bool(false), "llama-backend-test-helper not found near \(CommandLine.arguments[0]); run swift build --build-tests")
            return ""
        }
    }
}
