
/// What `bench backend` measured: speeds through the harness, from the server, and from `llama-bench`.
public struct BackendBenchReport: Sendable, Equatable, Codable {
    public var settings: BackendBenchSettings
    /// The prompt length actually processed (what `llama-bench -p` was given).
    public var promptTokens: Int
    public var model: String
    /// `/props` build of the server, and the build `llama-bench` reports.
    public var serverBuild: String
    public var llamaBenchBuild: String
    public var promptProcessing: SpeedComparison
    public var generation: SpeedComparison
    /// The generation request through the server's OpenAI-compatible `/v1/completions` (nil in older reports).
    public var generationOpenAI: SpeedComparison?
    /// The native generation request through URLSession instead of the socket client (nil in older reports).
    public var generationURLSession: SpeedComparison?
    /// Median client wall time not spent in the server's prompt or generation work, per request.
    public var overheadMs: Double
    /// What each way of sending the generation request costs (empty in older reports).
    public var clients: [ClientCost]
    /// Every measured request, in order.
    public var requests: [BenchRequest]
    public var llamaBench: [LlamaBenchResult]
}

/// One speed seen three ways; medians over the repetitions.
public struct SpeedComparison: Sendable, Equatable, Codable {
    /// Tokens/s measured by the client.
    public var clientPerSecond: Double
    /// The server's own figure (`prompt_per_second` or `predicted_per_second`).
    public var serverPerSecond: Double
    /// `llama-bench` on the same model and threads.
    public var llamaBenchPerSecond: Double

    /// Client over server: 1.0 means the harness adds nothing.
    public var clientToServer: Double { serverPerSecond > 0 ? clientPerSecond / serverPerSecond : 0 }
    /// Server over llama-bench: what the server's front end and sampling cost.
    public var serverToLlamaBench: Double { llamaBenchPerSecond > 0 ? serverPerSecond / llamaBenchPerSecond : 0 }
}

/// One benchmark request: what the client and the server measured.
public struct BenchRequest: Sendable, Equatable, Codable {
    public enum Kind: String, Sendable, Codable {
        case promptProcessing = "pp"
        case generation = "tg"
        /// The same generation request through `/v1/completions`.
        case generationOpenAI = "tg-openai"
        /// The same native generation request through URLSession.
        case generationURLSession = "tg-urlsession"
    }

    public var kind: Kind
    public var repetition: Int
    public var clientPerSecond: Double
    public var serverPerSecond: Double
    public var overheadMs: Double
    /// This process's CPU time across the request (nil when it could not be read).
    public var clientCPUMs: Double?
    public var client: ClientTimings
    public var server: ServerTimings
}
