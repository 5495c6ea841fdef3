import Foundation
import LangBench
import LlamaBackend

/// How generation reaches llama-server: start one (binary and model from the set-up cache or
/// LANGBENCH_LLAMA_SERVER / LANGBENCH_MODEL) or attach to a running one.
struct BackendOptions {
    static let group = OptionGroup("Server", [
        .value("server-url", "url", help: "Use a running llama-server instead of starting one (e.g. a bigger machine)."),
        .value("threads", "n", help: "Threads for a started server.", default: "profile"),
        .value("request-timeout", "seconds", help: "Per-request timeout.", default: "60"),
    ])

    var serverURL: URL?
    var threads: Int?
    var requestTimeout: Double

    init(_ arguments: ParsedArguments) throws {
        if let raw = arguments.value("server-url") {
            guard let url = URL(string: raw), url.scheme == "http" || url.scheme == "https", url.host != nil else {
                throw UsageError("--server-url must be an http(s) URL such as http://127.0.0.1:8080, not '\(raw)'", command: arguments.command)
            }
            serverURL = url
        }
        threads = arguments.value("threads") == nil ? nil : try arguments.int("threads", default: 2, range: 1...256)
        requestTimeout = try arguments.double("request-timeout", default: 60)
        if requestTimeout <= 0 { throw UsageError("--request-timeout must be positive", command: arguments.command) }
    }

    /// Starts or attaches to the server for `profile` with at least `slots` parallel slots.
    func open(profile: ModelProfile, slots: Int, runDirectory: URL, environment: [String: String]) async throws -> LlamaServer {
        if let serverURL { return try await LlamaServer.attach(to: serverURL) }
        ServerReaper.installSignalHandlers()
        let paths = BackendPaths.resolve(environment: environment)
        let configuration = ServerConfiguration(binary: paths.server, model: paths.model, contextSize: profile.server.contextSize * max(slots, 1),
                                                threads: threads ?? profile.server.threads, parallelSlots: max(slots, profile.server.parallelSlots),
                                                swaFull: profile.server.swaFull)
        return try await LlamaServer.launch(configuration, runDirectory: runDirectory)
    }

    /// Facts about the server for provenance (from /props), never failing the run.
    static func describe(_ server: LlamaServer, timeout: Double) async -> [String: String] {
        var facts = ["url": server.baseURL.absoluteString]
        if let configuration = server.configuration {
            facts["threads"] = String(configuration.threads)
            facts["parallel_slots"] = String(configuration.parallelSlots)
            facts["context_size"] = String(configuration.contextSize)
            facts["swa_full"] = String(configuration.swaFull)
        }
        do {
            let props = try await server.client(requestTimeout: timeout).props()
            facts["model_path"] = props.modelPath
            facts["build_info"] = props.buildInfo
            facts["context_per_slot"] = String(props.contextPerSlot)
            facts["total_slots"] = String(props.totalSlots)
        } catch {
            facts["props_error"] = "\(error)"
        }
        return facts
    }
}
