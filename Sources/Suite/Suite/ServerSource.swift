import Support
import Foundation
import Generation
import Backend

/// Where generation's llama-server comes from: started for the run (binary and model from
/// `LANGBENCH_LLAMA_SERVER` / `LANGBENCH_MODEL` or the set-up cache), a running one at `url`, or a
/// pool of running ones (`urls`, `--server-url` given several times) the items are dealt across.
package struct ServerSource: Sendable, Equatable {
    /// Running servers to attach to, in the order given (`server-1`, `server-2`, …); empty starts one.
    package var urls: [URL]
    /// The one running server to attach to (the first of a pool); nil starts one.
    package var url: URL? {
        get { urls.first }
        set { urls = newValue.map { [$0] } ?? [] }
    }
    /// More than one server: items are dealt across them (`ServerPool`).
    package var isPool: Bool { urls.count > 1 }
    /// Threads of a started server; nil takes the profile's.
    package var threads: Int?
    /// Per-request timeout in seconds.
    package var requestTimeout: Double = 60
    /// The environment variable holding the API key; nil takes the profile's `backend.api_key_env`.
    package var apiKeyEnv: String?

    package init(url: URL? = nil, threads: Int? = nil, requestTimeout: Double = 60, apiKeyEnv: String? = nil) {
        self.init(urls: url.map { [$0] } ?? [], threads: threads, requestTimeout: requestTimeout, apiKeyEnv: apiKeyEnv)
    }

    package init(urls: [URL], threads: Int? = nil, requestTimeout: Double = 60, apiKeyEnv: String? = nil) {
        self.urls = urls
        self.threads = threads
        self.requestTimeout = requestTimeout
        self.apiKeyEnv = apiKeyEnv
    }

    /// Parses a server URL: http(s) with a host, e.g. `http://127.0.0.1:8080`. The one check every
    /// `--server-url` goes through.
    package static func parseURL(_ text: String) throws -> URL {
        guard let url = URL(string: text), url.scheme == "http" || url.scheme == "https", url.host != nil else {
            throw ConfigurationError.invalidValue(name: "server-url", value: text, reason: "expected an http(s) URL such as http://127.0.0.1:8080" + Redaction.encodingAdvice(text))
        }
        return url
    }

    /// What makes two URLs one server: scheme and host in lower case, the port (the scheme's default when none is
    /// given), the path without trailing slashes or a final `/v1` (llama-server answers natively and as its own
    /// OpenAI-compatible API). User, password, query and fragment do not make another server.
    package static func identity(_ url: URL) -> String {
        let parts = URLComponents(url: url, resolvingAgainstBaseURL: false)
        let scheme = (parts?.scheme ?? "").lowercased()
        let port = parts?.port ?? (scheme == "https" ? 443 : 80)
        var path = parts?.path ?? ""
        while path.hasSuffix("/") { path.removeLast() }
        if path.hasSuffix("/v1") { path.removeLast(3) }
        return "\(scheme)://\((parts?.host ?? "").lowercased()):\(port)\(path)"
    }

    /// The first server given twice among `urls` (with where each was given, `places[i]`), or nil: a server given
    /// twice would be a "pool" whose two queues share one server's slots.
    package static func duplicate(in urls: [URL], places: [String]) -> (url: String, first: String, second: String)? {
        var seen: [String: Int] = [:]
        for (index, url) in urls.enumerated() {
            if let first = seen.updateValue(index, forKey: identity(url)) {
                return (redacted(url), places[first], places[index])
            }
        }
        return nil
    }

    /// `url` as reports may show it: scheme, host, port and path, without user, password, query or fragment
    /// (any of which may carry a credential).
    package static func redacted(_ url: URL) -> String {
        guard var parts = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return "(unparseable URL)" }
        parts.user = nil
        parts.password = nil
        parts.query = nil
        parts.fragment = nil
        return parts.string ?? "(unparseable URL)"
    }

    /// Starts or attaches to the server for `profile` with at least `slots` parallel slots. `model` is the
    /// model file's path (default: the set-up one, `modelPath(for:)`); `logName` the server log in `runDirectory`.
    /// `url` overrides the first of `urls` (a pool opens each of its servers this way).
    package func open(profile: ModelProfile, slots: Int, runDirectory: URL, environment: [String: String],
                     model: String? = nil, logName: String = "llama-server.log", url: URL? = nil) async throws -> LlamaServer {
        if let url = url ?? self.url {
            if let endpoint = openAIEndpoint(profile: profile, url: url, environment: environment) {
                return try await LlamaServer.attach(openAI: endpoint, timeout: requestTimeout)
            }
            return try await LlamaServer.attach(to: url)
        }
        if profile.backend.api != .llama {
            throw ConfigurationError.invalidValue(name: "backend.api", value: profile.backend.api.rawValue,
                                                  reason: "an OpenAI-compatible API needs a running server: pass --server-url (e.g. http://127.0.0.1:8080/v1)")
        }
        ServerReaper.installSignalHandlers()
        let paths = BackendPaths.resolve(environment: environment)
        let configuration = ServerConfiguration(binary: paths.server, model: model ?? paths.model, contextSize: profile.server.contextSize * max(slots, 1),
                                                threads: threads ?? profile.server.threads, parallelSlots: max(slots, profile.server.parallelSlots),
                                                swaFull: profile.server.swaFull)
        // A different model file would measure something else under the profile's name.
        if FileManager.default.fileExists(atPath: configuration.model) { try await ModelChecksum.verify(configuration.model, expected: profile.model.sha256) }
        return try await LlamaServer.launch(configuration, runDirectory: runDirectory, logName: logName)
    }

    /// Where a started server finds `profile`'s model: the set-up model (or `LANGBENCH_MODEL`) when the profile
    /// names the set-up file, a path as written when it names one, else that file in the set-up cache's models.
    package static func modelPath(for profile: ModelProfile, environment: [String: String]) -> String {
        let paths = BackendPaths.resolve(environment: environment)
        let file = profile.model.file
        if file == BackendPaths.modelFileName { return paths.model }
        if file.contains("/") { return file }
        return URL(fileURLWithPath: paths.model).deletingLastPathComponent().appendingPathComponent(file).path
    }

    /// Facts about the server for provenance (from /props); a failed query is recorded, not thrown.
    /// Of an OpenAI-compatible server: the API, the model and the key's variable name (never the key).
    package func describe(_ server: LlamaServer) async -> [String: String] {
        var facts = ["url": Self.redacted(server.baseURL)]
        if let endpoint = server.openAI {
            facts["api"] = "openai-\(endpoint.api.rawValue)"
            // A server may reflect the key into its model id.
            facts["model"] = Redaction.text(endpoint.model ?? "")
            facts["api_key_env"] = endpoint.keyVariable ?? ""
            facts["api_key"] = endpoint.key == nil ? "none" : "set"
            return facts
        }
        // The server's executable by content: two builds of one release (native and portable, say) sample differently
        // and run at other speeds, and their build_info is the same.
        let local = ["127.0.0.1", "localhost", "::1"].contains(server.baseURL.host ?? "")
        var listener = server.configuration == nil && local ? server.baseURL.port.flatMap(ServerEnvironment.listener(port:)) : nil
        // A proxy or port-forward owning the port is named, and neither its binary nor its command line is the server's.
        if let program = listener?.program, !ServerEnvironment.isLlamaServer(program: program) {
            facts["server_process"] = "not llama-server: \(Redaction.text(program))"
            listener = nil
        }
        if let binary = server.configuration?.binary ?? listener?.executable {
            do { facts["server_binary_sha256"] = try await ModelChecksum.sha256(ofFileAt: binary) }
            catch { facts["server_binary_sha256_error"] = Redaction.text("\(error)") }
        }
        if let configuration = server.configuration {
            facts["threads"] = String(configuration.threads)
            facts["parallel_slots"] = String(configuration.parallelSlots)
            facts["context_size"] = String(configuration.contextSize)
            facts["swa_full"] = String(configuration.swaFull)
            facts["server_args"] = ServerEnvironment.settings(configuration.arguments(port: 0))
        } else if let arguments = listener?.arguments {
            // An attached server on this machine: how it was started is readable, and it is what decides its speed.
            facts["server_args"] = Redaction.text(ServerEnvironment.settings(arguments))
        }
        if let log = server.logFile, let info = ServerEnvironment.systemInfo(logFile: log) { facts["system_info"] = info }
        do {
            let props = try await server.client(requestTimeout: requestTimeout).props()
            facts["model_path"] = props.modelPath
            facts["build_info"] = props.buildInfo
            facts["context_per_slot"] = String(props.contextPerSlot)
            facts["total_slots"] = String(props.totalSlots)
            // The model by content, when its file is on this machine: prompt token counts are exact only for one tokenizer.
            // A relative path is the server's own: from its working directory (a started server has ours), never guessed.
            var modelFile: String? = props.modelPath
            if !props.modelPath.hasPrefix("/"), server.configuration == nil {
                modelFile = listener?.workingDirectory.map { URL(fileURLWithPath: $0).appendingPathComponent(props.modelPath).path }
                if modelFile == nil, local { facts["model_sha256_error"] = "a relative model path and the server's working directory cannot be read" }
            }
            if let modelFile, FileManager.default.isReadableFile(atPath: modelFile) {
                do { facts["model_sha256"] = try await ModelChecksum.sha256(ofFileAt: modelFile) }
                catch { facts["model_sha256_error"] = Redaction.text("\(error)") }
            }
        } catch {
            facts["props_error"] = Redaction.text("\(error)")
        }
        return facts
    }
}
