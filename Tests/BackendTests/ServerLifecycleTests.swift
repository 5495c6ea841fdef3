import Foundation
import Testing
@testable import Backend
@testable import Support

extension IntegrationTests {
    @Suite struct ServerLifecycle {
        @Test func launchAnswersHealthAndStopLeavesNothing() async throws {
            let server = try await TestBackend.launch()
            let pid = try #require(server.processID)
            let paths = try TestBackend.requirePaths()
            #expect(server.isRunning)
            #expect(ServerReaper.runningProcessIDs.contains(pid))
            try await server.client().health()
            let props = try await server.client().props()
            #expect(props.modelPath == paths.model)
            #expect(props.contextPerSlot == 1024)
            #expect(props.totalSlots == 1)
            #expect(props.buildInfo.hasPrefix("b"))
            let log = try String(contentsOf: try #require(server.logFile), encoding: .utf8)
            #expect(log.contains("llama"), "the server writes its log to the run directory")

            server.stop()
            #expect(!server.isRunning)
            #expect(processIsGone(pid))
            #expect(!ServerReaper.runningProcessIDs.contains(pid))
            let error = await backendError { try await server.client().health() }
            #expect(error == .connectionRefused(url: server.baseURL.appendingPathComponent("health").absoluteString))
            server.stop()  // idempotent
        }

        @Test func modelThatFailsToLoadReportsTheServerLog() async throws {
            let paths = try TestBackend.requirePaths()
            let runDirectory = TestBackend.runDirectory()
            try FileManager.default.createDirectory(at: runDirectory, withIntermediateDirectories: true)
            let bogus = runDirectory.appendingPathComponent("not-a-model.gguf")
            try Data("this is not a GGUF file".utf8).write(to: bogus)
            var configuration = TestBackend.configuration(paths)
            configuration.model = bogus.path
            let start = ContinuousClock.now
            let error = await backendError { _ = try await LlamaServer.launch(configuration, runDirectory: runDirectory) }
            guard case .startFailed(let reason, let logTail, let logFile, _) = error else {
                Issue.record("expected startFailed, got \(String(describing: error))")
                return
            }
            #expect(reason.contains("exited"))
            #expect(!logTail.isEmpty)
            #expect(logTail.joined(separator: "\n").lowercased().contains("model"))
            #expect(logFile == runDirectory.appendingPathComponent("llama-server.log").path)
            #expect(ContinuousClock.now - start < .seconds(20), "a failed load is reported, not waited out")
        }

        @Test func missingBinaryOrModelFailsBeforeLaunching() async throws {
            let paths = try TestBackend.requirePaths()
            var configuration = TestBackend.configuration(paths)
            configuration.binary = "/nonexistent/llama-server"
            let noBinary = await backendError { _ = try await LlamaServer.launch(configuration, runDirectory: TestBackend.runDirectory()) }
            #expect(noBinary == .binaryNotFound(path: "/nonexistent/llama-server"))

            configuration = TestBackend.configuration(paths)
            configuration.model = "/nonexistent/model.gguf"
            let noModel = await backendError { _ = try await LlamaServer.launch(configuration, runDirectory: TestBackend.runDirectory()) }
            #expect(noModel == .modelNotFound(path: "/nonexistent/model.gguf"))
        }

        @Test func attachUsesARunningServerAndNeverStopsIt() async throws {
            let shared = try await SharedServer.shared.get()
            let attached = try await LlamaServer.attach(to: shared.baseURL)
            #expect(attached.processID == nil)
            #expect(attached.logFile == nil)
            attached.stop()
            try await attached.client().health()

            let port = try FreePort.find()
            let error = await backendError { _ = try await LlamaServer.attach(to: URL(string: "http://127.0.0.1:\(port)")!) }
            #expect(error == .connectionRefused(url: "http://127.0.0.1:\(port)/health"))
        }
    }
}
