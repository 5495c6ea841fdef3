import Foundation

/// How to launch `llama-server`: binary, model and every setting that changes speed or memory.
///
/// Context size, threads and slots are always passed explicitly so a run never depends on the
/// server's changing defaults; `arguments` is echoed into reports as the exact command line.
package struct ServerConfiguration: Sendable, Equatable, Codable {
    /// Path to the `llama-server` executable.
    package var binary: String
    /// Path to the GGUF model.
    package var model: String
    /// Total context (`-c`); each slot gets `contextSize / parallelSlots`.
    package var contextSize: Int
    /// CPU threads for generation and prompt processing (`-t`, `-tb`).
    package var threads: Int
    /// Parallel slots (`-np`); latency is measured with one.
    package var parallelSlots: Int
    /// Full-size sliding-window cache (`--swa-full`) so a shared few-shot prefix is reused from cache.
    package var swaFull: Bool
    /// Address to bind; loopback by default.
    package var host: String
    /// Port to bind; `nil` picks a free one.
    package var port: Int?
    /// How long to wait for `/health` to answer 200 after launch.
    package var startupTimeout: Double
    /// Extra arguments appended verbatim (e.g. `--mlock`); recorded like the rest.
    package var extraArguments: [String]

    package init(binary: String, model: String, contextSize: Int = 2048, threads: Int = 2,
                parallelSlots: Int = 1, swaFull: Bool = true, host: String = "127.0.0.1",
                port: Int? = nil, startupTimeout: Double = 60, extraArguments: [String] = []) {
        self.binary = binary
        self.model = model
        self.contextSize = contextSize
        self.threads = threads
        self.parallelSlots = parallelSlots
        self.swaFull = swaFull
        self.host = host
        self.port = port
        self.startupTimeout = startupTimeout
        self.extraArguments = extraArguments
    }

    /// The command-line arguments for a server bound to `port`.
    package func arguments(port: Int) -> [String] {
        var arguments = [
            "--model", model,
            "--host", host,
            "--port", String(port),
            "--ctx-size", String(contextSize),
            "--threads", String(threads),
            "--threads-batch", String(threads),
            "--parallel", String(parallelSlots),
            // The web UI and its assets are not needed and only add start-up work.
            "--no-webui",
        ]
        if swaFull { arguments.append("--swa-full") }
        return arguments + extraArguments
    }
}
