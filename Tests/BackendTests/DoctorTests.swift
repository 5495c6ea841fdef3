import Foundation
import Testing
@testable import Backend

extension IntegrationTests {
    /// `doctor` tells the truth in each state: nothing installed, binary but no model, everything ready.
    @Suite struct Doctor {
        @Test func nothingInstalled() async throws {
            let paths = BackendPaths.resolve(environment: ["HOME": "/nonexistent-home"])
            let checks = await BackendDoctor(paths: paths, runDirectory: TestBackend.runDirectory()).run()
            #expect(checks.map(\.name) == ["llama-server", "model", "server"])
            #expect(checks.map(\.status) == [.failed, .failed, .skipped])
            #expect(checks[0].detail == "not found at /nonexistent-home/.cache/langbench/llama.cpp/b11434-noamx/bin/llama-server (set-up cache)")
            #expect(!checks.allRequiredPassed)
            #expect(checks.fixes == ["scripts/setup-llama", "scripts/setup-model"])
        }

        @Test func binaryButNoModel() async throws {
            var paths = try TestBackend.requirePaths()
            paths.model = "/nonexistent/model.gguf"
            paths.modelSource = "set-up cache"  // as on a machine without LANGBENCH_MODEL (scripts/test sets it)
            let checks = await BackendDoctor(paths: paths, runDirectory: TestBackend.runDirectory()).run()
            #expect(checks.map(\.status) == [.passed, .failed, .skipped])
            #expect(checks[0].detail.hasPrefix("version: "))
            #expect(checks.fixes == ["scripts/setup-model"])
        }

        @Test func modelWithTheWrongChecksum() async throws {
            let paths = try TestBackend.requirePaths()
            let directory = TestBackend.runDirectory()
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            var broken = paths
            broken.model = directory.appendingPathComponent("truncated.gguf").path
            try Data("GGUF".utf8).write(to: URL(fileURLWithPath: broken.model))
            let checks = await BackendDoctor(paths: broken, runDirectory: directory).run()
            #expect(checks[1].status == .failed)
            #expect(checks[1].detail.contains("expected \(BackendPaths.modelSHA256)"))
            #expect(checks[1].fix == "rm -f \(broken.model) && scripts/setup-model")
        }

        @Test func everythingReady() async throws {
            let paths = try TestBackend.requirePaths()
            let checks = await BackendDoctor(paths: paths, runDirectory: TestBackend.runDirectory()).run()
            #expect(checks.map(\.status) == [.passed, .passed, .passed], "\(checks.map(\.detail))")
            #expect(checks.allRequiredPassed)
            #expect(checks.fixes.isEmpty)
            #expect(checks[1].detail.hasSuffix("SHA-256 verified"))
            #expect(checks[2].detail.contains("answered /health"))
        }

        @Test func attachedServerNeedsNoLocalFiles() async throws {
            let shared = try await SharedServer.shared.get()
            let paths = BackendPaths.resolve(environment: ["HOME": "/nonexistent-home"])
            let checks = await BackendDoctor(paths: paths, runDirectory: TestBackend.runDirectory(),
                                             serverURL: shared.baseURL).run()
            #expect(checks.map(\.status) == [.failed, .failed, .passed])
            #expect(checks.allRequiredPassed, "binary and model are optional with --server-url")
        }
    }
}
