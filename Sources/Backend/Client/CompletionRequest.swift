/// One `/completion` call with every generation setting spelled out.
///
/// Nothing is left to the server's defaults, which change between llama.cpp builds; the server
/// echoes what it used in `Completion.settings`.
package struct CompletionRequest: Sendable, Equatable, Codable {
    /// Plain-text prompt (the model is a base model: no chat template is applied).
    package var prompt: String
    /// Maximum tokens to generate (`n_predict`).
    package var maxTokens: Int
    package var temperature: Double
    /// Sampling seed; fixed seed and settings give the same text.
    package var seed: Int
    /// Strings that end generation (not included in the content).
    package var stop: [String]
    /// Reuse the slot's cached prefix (`cache_prompt`).
    package var cachePrompt: Bool
    package var topK: Int
    package var topP: Double
    package var minP: Double
    /// Keep generating past end-of-sequence (for fixed-length speed measurements).
    package var ignoreEOS: Bool

    package init(prompt: String, maxTokens: Int = 64, temperature: Double = 0, seed: Int = 42,
                stop: [String] = ["\n"], cachePrompt: Bool = true, topK: Int = 40, topP: Double = 0.95,
                minP: Double = 0.05, ignoreEOS: Bool = false) {
        self.prompt = prompt
        self.maxTokens = maxTokens
        self.temperature = temperature
        self.seed = seed
        self.stop = stop
        self.cachePrompt = cachePrompt
        self.topK = topK
        self.topP = topP
        self.minP = minP
        self.ignoreEOS = ignoreEOS
    }
}

extension CompletionRequest {
    /// The JSON body sent to `/completion`; `stream` is always on so TTFT is measured by the client.
    struct Body: Encodable {
        let prompt: String
        let n_predict: Int
        let temperature: Double
        let seed: Int
        let stop: [String]
        let cache_prompt: Bool
        let top_k: Int
        let top_p: Double
        let min_p: Double
        let ignore_eos: Bool
        let stream = true
    }

    var body: Body {
        Body(prompt: prompt, n_predict: maxTokens, temperature: temperature, seed: seed, stop: stop,
             cache_prompt: cachePrompt, top_k: topK, top_p: topP, min_p: minP, ignore_eos: ignoreEOS)
    }
}
