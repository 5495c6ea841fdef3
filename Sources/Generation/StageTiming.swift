import Backend

/// One request of a route (translate-in, generate or translate-out): its time split as vLLM's
/// `bench serve` does, and the server's own token counts, which show what the cache reused.
package struct StageTiming: Sendable, Hashable, Codable {
    /// The request on the client clock, from just before it was sent to its last event.
    package var ms: Double
    /// Until the first non-empty streamed content.
    package var ttftMs: Double?
    /// Time per output token after the first: (ms − ttft) / (completion tokens − 1); nil below 2 tokens.
    package var tpotMs: Double?
    /// Tokens in the prompt (`tokens_evaluated`, or `usage.prompt_tokens`); nil when the server did not say.
    package var promptTokens: Int?
    /// Prompt tokens the server actually evaluated (`timings.prompt_n`); the rest came from its cache.
    /// Nil when the server sends no timings.
    package var promptProcessed: Int?
    /// Prompt tokens reused from the slot's cache (`timings.cache_n`); nil without timings.
    package var promptCached: Int?
    /// Nil when the server did not count them.
    package var completionTokens: Int?
    /// The translation engine that served this request when it was not the model (`apertium`, `exec`); nil for the
    /// model's requests. Its tokens, cache state and TPOT are not the model's, so none is recorded.
    package var engine: String?

    enum CodingKeys: String, CodingKey {
        case ms, ttftMs = "ttft_ms", tpotMs = "tpot_ms", promptTokens = "prompt_tokens", promptProcessed = "prompt_n"
        case promptCached = "cache_n", completionTokens = "completion_tokens", engine
    }

    package init(ms: Double, ttftMs: Double?, promptTokens: Int?, promptProcessed: Int?, promptCached: Int?, completionTokens: Int?) {
        self.ms = ms
        self.ttftMs = ttftMs
        self.tpotMs = Self.tpot(total: ms, ttft: ttftMs, tokens: completionTokens)
        self.promptTokens = promptTokens
        self.promptProcessed = promptProcessed
        self.promptCached = promptCached
        self.completionTokens = completionTokens
    }

    /// A request of a translation engine that is not the model: its time, and nothing the model counts.
    init(engine: String, ms: Double, ttftMs: Double?) {
        self.init(ms: ms, ttftMs: ttftMs, promptTokens: nil, promptProcessed: nil, promptCached: nil, completionTokens: nil)
        self.engine = engine
    }

    /// A finished request, timed by the client.
    init(_ completion: Completion) {
        self.init(ms: completion.client.wallMs, ttftMs: completion.client.timeToFirstTokenMs, promptTokens: completion.tokensEvaluated,
                  promptProcessed: completion.server?.promptN, promptCached: completion.server?.cacheN,
                  completionTokens: completion.tokensPredicted)
    }

    /// TPOT = (E2E − TTFT) / (N − 1), the decode cost of each token after the first.
    static func tpot(total: Double, ttft: Double?, tokens: Int?) -> Double? {
        guard let ttft, let tokens, tokens > 1 else { return nil }
        return max(0, total - ttft) / Double(tokens - 1)
    }

    /// The whole prompt was evaluated: nothing came from the cache.
    /// False when the server's counts are unknown: a request is called cold only when the server says so.
    package var isCold: Bool {
        guard let promptCached, let promptProcessed, let promptTokens else { return false }
        return promptCached == 0 && promptProcessed >= promptTokens
    }
}
