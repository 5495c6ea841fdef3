import Support
import Foundation
import Synchronization

/// A `llama-server` this harness either launched (and will stop) or attached to by URL.
///
/// A launched server is registered with `ServerReaper` and guarded by a watchdog, so it does not
/// outlive the harness however the harness ends. Stop it explicitly (`defer { server.stop() }`):
/// there is no `deinit` stop, because Swift may release an object before the end of its scope
/// while a client is still talking to the server. An attached server is never stopped by us.
package final class LlamaServer: Sendable {
    /// Where the server answers, e.g. `http://127.0.0.1:41234`.
    package let baseURL: URL
    /// The launch settings; `nil` when attached.
    package let configuration: ServerConfiguration?
    /// The server's combined stdout and stderr; `nil` when attached.
    package let logFile: URL?
    /// The launched process; replaced by `restart()`.
    private let managed: Mutex<ManagedProcess?>
    /// Set when replies go through an OpenAI-compatible API instead of the native `/completion`.
    package let openAI: OpenAIEndpoint?

    private init(baseURL: URL, configuration: ServerConfiguration?, logFile: URL?, managed: ManagedProcess?, openAI: OpenAIEndpoint? = nil) {
        self.baseURL = baseURL
        self.configuration = configuration
        self.logFile = logFile
        self.managed = Mutex(managed)
        self.openAI = openAI
    }

    /// The client replies go through: the OpenAI-compatible one when `openAI` is set, else the native one.
    package func backend(requestTimeout: Double = 120) -> any TextCompleting {
        openAI.map { OpenAIClient(endpoint: $0, requestTimeout: requestTimeout) } ?? client(requestTimeout: requestTimeout)
    }

    /// Uses an OpenAI-compatible server someone else runs: settles the model against `/v1/models` and
    /// sends one tiny request (which proves the key) before returning. `baseURL` is the endpoint's.
    package static func attach(openAI endpoint: OpenAIEndpoint, timeout: Double = 30) async throws -> LlamaServer {
        let resolved = try await OpenAIClient(endpoint: endpoint, requestTimeout: timeout).resolve(timeout: timeout)
        _ = try await OpenAIClient(endpoint: resolved, requestTimeout: timeout).probe()
        return LlamaServer(baseURL: resolved.baseURL, configuration: nil, logFile: nil, managed: nil, openAI: resolved)
    }

    private var process: ManagedProcess? { managed.withLock { $0 } }

    /// A client for this server with the given per-request deadline.
    package func client(requestTimeout: Double = 120) -> LlamaClient {
        LlamaClient(baseURL: baseURL, requestTimeout: requestTimeout)
    }

    /// The process id of a launched server.
    package var processID: Int32? { process?.processID }

    /// Whether a launched server's process is still alive (always `true` when attached).
    package var isRunning: Bool { process?.isRunning ?? true }

    /// Whether this server was launched by us (and so can be restarted).
    package var isManaged: Bool { configuration != nil }

    /// The last lines of the server's log (empty when attached).
    package func logTail(lines: Int = 20) -> [String] {
        logFile.map { LogTail.read($0, lines: lines) } ?? []
    }

    /// Stops a launched server (SIGTERM, then SIGKILL) and waits until it is gone; no-op when
    /// attached. Idempotent; blocks for as long as the server takes to exit (normally < 1 s).
    package func stop() {
        process?.stop()
    }

    /// Launches a launched server again, on the same port (so clients keep their URL), after its process
    /// died; returns once `/health` answers 200. The log continues in the same file. Throws for an
    /// attached server, or when the new process does not come up.
    package func restart() async throws {
        guard let configuration, let logFile, let port = baseURL.port else {
            throw BackendError.startFailed(reason: "an attached server cannot be restarted", logTail: [], logFile: nil)
        }
        process?.stop()
        let log: FileHandle
        do {
            log = try FileHandle(forWritingTo: logFile)
            try log.seekToEnd()
            try log.write(contentsOf: Data("\n--- langbench: llama-server restarted ---\n".utf8))
        } catch {
            throw BackendError.startFailed(reason: "cannot write \(logFile.path): \(error.localizedDescription)", logTail: [], logFile: nil)
        }
        defer { try? log.close() }
        let restarted = try Self.start(configuration, port: port, log: log, logFile: logFile)
        managed.withLock { $0 = restarted }
        do {
            try await waitUntilHealthy(restarted, timeout: configuration.startupTimeout)
        } catch {
            restarted.stop()
            throw error
        }
    }

    /// Uses a server someone else runs; checks that it answers `/health` with 200 first.
    package static func attach(to url: URL, timeout: Double = 10) async throws -> LlamaServer {
        try await LlamaClient(baseURL: url).health(timeout: timeout)
        return LlamaServer(baseURL: url, configuration: nil, logFile: nil, managed: nil)
    }

    /// Launches the server, logging to `runDirectory/<logName>`, and returns once `/health`
    /// answers 200. On any failure the process is stopped and the error carries the log's last lines.
    package static func launch(_ configuration: ServerConfiguration, runDirectory: URL, logName: String = "llama-server.log") async throws -> LlamaServer {
        let files = FileManager.default
        guard files.isExecutableFile(atPath: configuration.binary) else {
            throw BackendError.binaryNotFound(path: configuration.binary)
        }
        guard files.fileExists(atPath: configuration.model) else {
            throw BackendError.modelNotFound(path: configuration.model)
        }
        let (log, logFile) = try ManagedProcess.createLog(logName, in: runDirectory)
        defer { try? log.close() }

        let port = try configuration.port ?? FreePort.find()
        let managed = try start(configuration, port: port, log: log, logFile: logFile)
        let server = LlamaServer(baseURL: URL(string: "http://\(configuration.host):\(port)")!,
                                 configuration: configuration, logFile: logFile, managed: managed)
        do {
            try await server.waitUntilHealthy(managed, timeout: configuration.startupTimeout)
        } catch {
            managed.stop()
            throw error
        }
        return server
    }

    private static func start(_ configuration: ServerConfiguration, port: Int, log: FileHandle,
                              logFile: URL) throws -> ManagedProcess {
        try ManagedProcess.launch(configuration.binary, arguments: configuration.arguments(port: port), log: log, logFile: logFile)
    }
}
