import Foundation

/// The text a server produced for one request, with the client's and the server's measurements.
package struct Completion: Sendable, Equatable, Codable {
    package var content: String
    /// Why generation ended.
    package var stopType: StopType
    /// The stop string that ended generation, empty otherwise.
    package var stoppingWord: String
    /// The prompt did not fit the slot's context and was cut.
    package var truncated: Bool
    /// Tokens generated and tokens in the prompt, as the server counted them; nil when it did not say
    /// (an OpenAI-compatible server that sends no `usage`): unknown, never estimated.
    package var tokensPredicted: Int?
    package var tokensEvaluated: Int?
    /// The server's own timings; nil when it sends none (any OpenAI-compatible server but llama.cpp's).
    package var server: ServerTimings?
    package var client: ClientTimings
    /// The settings the server reports it used; nil when it does not echo them (OpenAI-compatible APIs).
    package var settings: EchoedSettings?
    /// The server sent text past one of the request's stop strings (it ignored `stop`); `content` was cut there.
    package var ignoredStop = false
    /// The server's text held the API key (a proxy reflecting the request's headers); it was redacted from `content`.
    package var secretRedacted = false
    /// The server reported a token count the request cannot have produced; it was dropped (unknown).
    package var invalidCounts = false

    package init(content: String, stopType: StopType, stoppingWord: String, truncated: Bool,
                tokensPredicted: Int?, tokensEvaluated: Int?, server: ServerTimings?, client: ClientTimings,
                settings: EchoedSettings?) {
        self.content = content
        self.stopType = stopType
        self.stoppingWord = stoppingWord
        self.truncated = truncated
        self.tokensPredicted = tokensPredicted
        self.tokensEvaluated = tokensEvaluated
        self.server = server
        self.client = client
        self.settings = settings
    }

    /// Generation speed seen by the client: decode steps (token events after the first) over the
    /// time between the first and the last token event — the same definition as the server's
    /// `predicted_per_second`, whose first token is free (it comes from the prompt's logits).
    package var clientPredictedPerSecond: Double? {
        guard client.tokenEvents > 1, let first = client.firstTokenEventMs, let last = client.lastTokenEventMs,
              last > first else { return nil }
        return Double(client.tokenEvents - 1) / (last - first) * 1000
    }

    /// Client wall time not accounted for by the server's prompt and generation time: HTTP, JSON,
    /// scheduling and streaming overhead of this harness and the server's front end.
    package var overheadMs: Double? {
        server.map { client.wallMs - $0.promptMs - $0.predictedMs }
    }
}

extension Completion {
    /// This completion as far as `request` allows it to be true: the text up to the first of its stop strings (a
    /// server that ignores `stop` runs on into the next turn, which is not the reply; marks `ignoredStop`), and
    /// token counts the request could have produced — a negative count, or more generated tokens than
    /// `max_tokens` (plus `countMargin`), becomes unknown and marks `invalidCounts`, never a figure to average.
    func checked(against request: CompletionRequest) -> Completion {
        var checked = self
        let first = request.stop.filter { !$0.isEmpty }.compactMap { content.range(of: $0) }.min { $0.lowerBound < $1.lowerBound }
        if let first {
            checked.content = String(content[..<first.lowerBound])
            checked.ignoredStop = true
        }
        let limit = request.maxTokens > 0 ? request.maxTokens + Self.countMargin : Int.max
        if let predicted = tokensPredicted, predicted < 0 || predicted > limit {
            checked.tokensPredicted = nil
            checked.invalidCounts = true
        }
        if let evaluated = tokensEvaluated, evaluated < 0 {
            checked.tokensEvaluated = nil
            checked.invalidCounts = true
        }
        return checked
    }

    /// Generated tokens a server may report past `max_tokens` (a final end-of-sequence or stop token counted).
    static let countMargin = 2

    /// The server's timings, or a `malformedResponse` naming `url` when it sent none (figures that
    /// need the server's own clock cannot be made up from the client's).
    package func requireServerTimings(url: String) throws -> ServerTimings {
        guard let server else { throw BackendError.malformedResponse(url: url, detail: "no timings object in the response") }
        return server
    }
}

/// Why the server stopped generating.
package enum StopType: String, Sendable, Equatable, Codable {
    /// The model produced end-of-sequence.
    case eos
    /// A stop string matched.
    case word
    /// `n_predict` or the context was reached.
    case limit
    /// End-of-sequence or a stop string: OpenAI-compatible APIs (`finish_reason: "stop"`) do not tell them apart.
    case stop
    /// Not reported (e.g. the request was interrupted).
    case none
}

/// The server's own `timings` object for one request.
package struct ServerTimings: Sendable, Equatable, Codable {
    /// Prompt tokens reused from the slot's cache.
    package var cacheN: Int
    package var promptN: Int
    package var promptMs: Double
    package var promptPerSecond: Double
    package var predictedN: Int
    package var predictedMs: Double
    package var predictedPerSecond: Double

    package init(cacheN: Int, promptN: Int, promptMs: Double, promptPerSecond: Double, predictedN: Int,
                predictedMs: Double, predictedPerSecond: Double) {
        self.cacheN = cacheN
        self.promptN = promptN
        self.promptMs = promptMs
        self.promptPerSecond = promptPerSecond
        self.predictedN = predictedN
        self.predictedMs = predictedMs
        self.predictedPerSecond = predictedPerSecond
    }
}

/// Times measured by the client on its monotonic clock, in milliseconds from just before the
/// request was sent, stamped when the bytes arrived.
package struct ClientTimings: Sendable, Equatable, Codable {
    /// Until the final event arrived.
    package var wallMs: Double
    /// Until the response headers arrived.
    package var headersMs: Double?
    /// Until the first event carrying non-empty content (TTFT); `nil` if none did.
    package var timeToFirstTokenMs: Double?
    /// Until the first and the last per-token event (one per generated token unless the server held
    /// text back while matching a stop string).
    package var firstTokenEventMs: Double?
    package var lastTokenEventMs: Double?
    package var tokenEvents: Int

    package init(wallMs: Double, headersMs: Double?, timeToFirstTokenMs: Double?, firstTokenEventMs: Double?,
                lastTokenEventMs: Double?, tokenEvents: Int) {
        self.wallMs = wallMs
        self.headersMs = headersMs
        self.timeToFirstTokenMs = timeToFirstTokenMs
        self.firstTokenEventMs = firstTokenEventMs
        self.lastTokenEventMs = lastTokenEventMs
        self.tokenEvents = tokenEvents
    }
}

/// The generation settings the server echoed back (`generation_settings`).
package struct EchoedSettings: Sendable, Equatable, Codable {
    package var nPredict: Int
    package var temperature: Double
    package var seed: Int
    package var topK: Int
    package var topP: Double
    package var minP: Double
    package var stop: [String]
    package var ignoreEOS: Bool

    package init(nPredict: Int, temperature: Double, seed: Int, topK: Int, topP: Double, minP: Double,
                stop: [String], ignoreEOS: Bool) {
        self.nPredict = nPredict
        self.temperature = temperature
        self.seed = seed
        self.topK = topK
        self.topP = topP
        self.minP = minP
        self.stop = stop
        self.ignoreEOS = ignoreEOS
    }
}
