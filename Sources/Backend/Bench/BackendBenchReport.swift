
/// What `bench backend` measured: speeds through the harness, from the server, and from `llama-bench`.
package struct BackendBenchReport: Sendable, Equatable, Codable {
    package var settings: BackendBenchSettings
    /// The prompt length actually processed (what `llama-bench -p` was given).
    package var promptTokens: Int
    package var model: String
    /// `/props` build of the server, and the build `llama-bench` reports.
    package var serverBuild: String
    package var llamaBenchBuild: String
    package var promptProcessing: SpeedComparison
    package var generation: SpeedComparison
    /// The generation request through the server's OpenAI-compatible `/v1/completions` (nil in older reports).
    package var generationOpenAI: SpeedComparison?
    /// The native generation request through URLSession instead of the socket client (nil in older reports).
    package var generationURLSession: SpeedComparison?
    /// Median client wall time not spent in the server's prompt or generation work, per request.
    package var overheadMs: Double
    /// What each way of sending the generation request costs (empty in older reports).
    package var clients: [ClientCost]
    /// Every measured request, in order.
    package var requests: [BenchRequest]
    package var llamaBench: [LlamaBenchResult]
}

/// One speed seen three ways; medians over the repetitions.
package struct SpeedComparison: Sendable, Equatable, Codable {
    /// Tokens/s measured by the client.
    package var clientPerSecond: Double
    /// The server's own figure (`prompt_per_second` or `predicted_per_second`).
    package var serverPerSecond: Double
    /// `llama-bench` on the same model and threads.
    package var llamaBenchPerSecond: Double

    /// Client over server: 1.0 means the harness adds nothing.
    package var clientToServer: Double { serverPerSecond > 0 ? clientPerSecond / serverPerSecond : 0 }
    /// Server over llama-bench: what the server's front end and sampling cost.
    package var serverToLlamaBench: Double { llamaBenchPerSecond > 0 ? serverPerSecond / llamaBenchPerSecond : 0 }
}

/// One benchmark request: what the client and the server measured.
package struct BenchRequest: Sendable, Equatable, Codable {
    package enum Kind: String, Sendable, Codable {
        case promptProcessing = "pp"
        case generation = "tg"
        /// The same generation request through `/v1/completions`.
        case generationOpenAI = "tg-openai"
        /// The same native generation request through URLSession.
        case generationURLSession = "tg-urlsession"
    }

    package var kind: Kind
    package var repetition: Int
    package var clientPerSecond: Double
    package var serverPerSecond: Double
    package var overheadMs: Double
    /// This process's CPU time across the request (nil when it could not be read).
    package var clientCPUMs: Double?
    package var client: ClientTimings
    package var server: ServerTimings
}
