import Foundation

/// Where the llama.cpp binaries and the model are expected, from the environment or the set-up cache.
///
/// `LANGBENCH_LLAMA_SERVER` and `LANGBENCH_MODEL` win; otherwise the paths `scripts/setup-llama` and
/// `scripts/setup-model` install to, under `LANGBENCH_CACHE` (default `~/.cache/langbench`).
package struct BackendPaths: Sendable, Equatable {
    /// The llama.cpp release the set-up script builds (`b<N>`).
    package static let llamaBuild = "b11434"
    /// The cache folder of that build: `-noamx` since the script builds without AMX (a machine that reports
    /// AMX but refuses it killed the native build with SIGILL), so an older build there is not picked up.
    package static let llamaCacheFolder = "\(llamaBuild)-noamx"
    /// The model the set-up script installs, and its SHA-256.
    package static let modelFileName = "gemma-3-270m-q4_k_m.gguf"
    package static let modelSHA256 = "a5fd3b62230aa5ec60212297dc9d20eaa70578ac519e00d93a17e44c087a6818"

    package var server: String
    /// `llama-bench`, expected next to `llama-server`.
    package var bench: String
    package var model: String
    /// Which variable or default each path came from, for messages.
    package var serverSource: String
    package var modelSource: String

    package init(server: String, bench: String, model: String, serverSource: String, modelSource: String) {
        self.server = server
        self.bench = bench
        self.model = model
        self.serverSource = serverSource
        self.modelSource = modelSource
    }

    /// The set-up cache: `LANGBENCH_CACHE`, else `~/.cache/langbench`.
    package static func cacheDirectory(environment: [String: String]) -> String {
        environment["LANGBENCH_CACHE"].flatMap { $0.isEmpty ? nil : $0 } ?? "\(environment["HOME"] ?? NSHomeDirectory())/.cache/langbench"
    }

    /// Resolves the paths from `environment` (pass `ProcessInfo.processInfo.environment`).
    package static func resolve(environment: [String: String]) -> BackendPaths {
        let cache = cacheDirectory(environment: environment)
        let defaultServer = "\(cache)/llama.cpp/\(llamaCacheFolder)/bin/llama-server"
        let defaultModel = "\(cache)/models/\(modelFileName)"

        let server = nonEmpty(environment["LANGBENCH_LLAMA_SERVER"])
        let model = nonEmpty(environment["LANGBENCH_MODEL"])
        let serverPath = server ?? defaultServer
        let bench = URL(fileURLWithPath: serverPath).deletingLastPathComponent().appendingPathComponent("llama-bench").path
        return BackendPaths(server: serverPath, bench: bench, model: model ?? defaultModel,
                            serverSource: server == nil ? "set-up cache" : "LANGBENCH_LLAMA_SERVER",
                            modelSource: model == nil ? "set-up cache" : "LANGBENCH_MODEL")
    }

    var serverFromEnvironment: Bool { serverSource == "LANGBENCH_LLAMA_SERVER" }
    var modelFromEnvironment: Bool { modelSource == "LANGBENCH_MODEL" }

    private static func nonEmpty(_ value: String?) -> String? {
        guard let value, !value.isEmpty else { return nil }
        return value
    }
}
