import Foundation

/// The JSON llama-server sends, decoded as loosely as the protocol allows and no looser.
enum WireFormat {
    /// One `data:` event of a `/completion` stream: partial events carry `content` and `stop: false`;
    /// the final one carries `stop: true` and the whole summary.
    struct Event: Decodable {
        let content: String?
        let stop: Bool?
        let error: ErrorBody?
        let stop_type: String?
        let stopping_word: String?
        let truncated: Bool?
        let tokens_predicted: Int?
        let tokens_evaluated: Int?
        let timings: Timings?
        let generation_settings: Settings?
    }

    struct Timings: Decodable {
        let cache_n: Int?
        let prompt_n: Int
        let prompt_ms: Double
        let prompt_per_second: Double
        let predicted_n: Int
        let predicted_ms: Double
        let predicted_per_second: Double

        var value: ServerTimings {
            ServerTimings(cacheN: cache_n ?? 0, promptN: prompt_n, promptMs: prompt_ms,
                          promptPerSecond: prompt_per_second, predictedN: predicted_n,
                          predictedMs: predicted_ms, predictedPerSecond: predicted_per_second)
        }
    }

    struct Settings: Decodable {
        let n_predict: Int
        let temperature: Double
        let seed: Int
        let top_k: Int
        let top_p: Double
        let min_p: Double
        let stop: [String]
        let ignore_eos: Bool

        var value: EchoedSettings {
            EchoedSettings(nPredict: n_predict, temperature: temperature, seed: seed, topK: top_k,
                           topP: top_p, minP: min_p, stop: stop, ignoreEOS: ignore_eos)
        }
    }

    /// `{"error": {"code": 400, "message": "...", "type": "..."}}`, as a body or inside a stream.
    struct ErrorEnvelope: Decodable {
        let error: ErrorBody
    }

    struct ErrorBody: Decodable {
        let code: Int?
        let message: String?
        let type: String?

        var summary: String {
            [type, message].compactMap { $0 }.joined(separator: ": ")
        }
    }

    /// The server's error message from a response body (llama-server's JSON error), or what the body is
    /// by kind and size ("an HTML page (text/html, 2.3 kB)") — never its text, which may quote the prompt.
    static func errorMessage(_ body: Data, contentType: String?, size: Int) -> String {
        if let envelope = try? JSONDecoder().decode(ErrorEnvelope.self, from: body), !envelope.error.summary.isEmpty {
            return envelope.error.summary
        }
        return ResponseLimits.describe(contentType: contentType, head: body, size: size)
    }
}
