import Foundation
import Testing
@testable import Backend

/// The real llama-server and model for integration tests, found like the CLI finds them:
/// `LANGBENCH_LLAMA_SERVER` / `LANGBENCH_MODEL`, else the set-up cache. Missing files fail the test.
enum TestBackend {
    static let paths = BackendPaths.resolve(environment: ProcessInfo.processInfo.environment)

    /// Fails the calling test with what to run when the binary or the model is missing.
    static func requirePaths(sourceLocation: SourceLocation = #_sourceLocation) throws -> BackendPaths {
        try #require(FileManager.default.isExecutableFile(atPath: paths.server),
                     "llama-server not found at \(paths.server) (\(paths.serverSource)); run scripts/setup-llama or set LANGBENCH_LLAMA_SERVER",
                     sourceLocation: sourceLocation)
        try #require(FileManager.default.fileExists(atPath: paths.model),
                     "model not found at \(paths.model) (\(paths.modelSource)); run scripts/setup-model or set LANGBENCH_MODEL",
                     sourceLocation: sourceLocation)
        return paths
    }

    static func configuration(_ paths: BackendPaths, contextSize: Int = 1024) -> ServerConfiguration {
        ServerConfiguration(binary: paths.server, model: paths.model, contextSize: contextSize, threads: 2,
                            parallelSlots: 1, swaFull: true, startupTimeout: 60)
    }

    /// A fresh run directory under the system temporary directory.
    static func runDirectory(_ name: String = #function) -> URL {
        let safe = name.filter { $0.isLetter || $0.isNumber }
        return FileManager.default.temporaryDirectory
            .appendingPathComponent("langbench-tests-\(safe)-\(UUID().uuidString.prefix(8))")
    }

    /// Launches a server owned by one test.
    static func launch(contextSize: Int = 1024, name: String = #function) async throws -> LlamaServer {
        let paths = try requirePaths()
        return try await LlamaServer.launch(configuration(paths, contextSize: contextSize),
                                            runDirectory: runDirectory(name))
    }
}

/// One server shared by the read-only completion tests, launched on first use; the watchdog stops
/// it when the test process exits.
actor SharedServer {
    static let shared = SharedServer()
    private var server: LlamaServer?

    func get() async throws -> LlamaServer {
        if let server, server.isRunning { return server }
        let launched = try await TestBackend.launch(contextSize: 2048, name: "shared")
        server = launched
        return launched
    }
}

/// Whether a process is gone: no such pid, or a zombie nobody reaped (it holds no resources).
func processIsGone(_ pid: Int32) -> Bool {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else {
        return kill(pid, 0) != 0
    }
    // The state follows the parenthesised command name: "pid (comm) S ...".
    guard let close = stat.lastIndex(of: ")") else { return false }
    let state = stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).first
    return state == "Z" || state == "X"
}

/// Polls `condition` every 50 ms for up to `seconds`.
func eventually(within seconds: Double, _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
    while ContinuousClock.now < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(50))
    }
    return condition()
}

/// The `BackendError` a throwing call produced, recording an issue if it produced something else.
func backendError(sourceLocation: SourceLocation = #_sourceLocation,
                  _ body: () async throws -> Void) async -> BackendError? {
    do {
        try await body()
        Issue.record("expected a BackendError, but the call succeeded", sourceLocation: sourceLocation)
    } catch let error as BackendError {
        return error
    } catch {
        Issue.record("expected a BackendError, got \(type(of: error)): \(error)", sourceLocation: sourceLocation)
    }
    return nil
}
