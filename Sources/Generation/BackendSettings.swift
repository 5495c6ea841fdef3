import Support
import Backend

/// How a profile's replies reach the server: llama.cpp's native `/completion` (the default) or an
/// OpenAI-compatible API, with the model name and the environment variable holding the key.
/// The profile's `backend` section; every key has a default, so profiles without it decode unchanged.
package struct BackendSettings: Sendable, Hashable, Codable {
    /// Which API replies go through.
    package enum API: String, Sendable, Hashable, Codable, CaseIterable {
        /// llama-server's native `/completion` (server timings and echoed settings on every reply).
        case llama
        /// `/v1/completions`: the plain prompt (base models).
        case openAICompletions = "openai-completions"
        /// `/v1/chat/completions`: the prompt as one user message (chat models).
        case openAIChat = "openai-chat"

        /// The OpenAI-compatible API, nil for the native one.
        package var openAI: OpenAIAPI? {
            switch self {
            case .llama: nil
            case .openAICompletions: .completions
            case .openAIChat: .chat
            }
        }
    }

    package var api: API
    /// The model name sent to an OpenAI-compatible server; nil takes the server's only model.
    package var model: String?
    /// The environment variable holding the API key (sent as `Authorization: Bearer`); nil sends none.
    package var apiKeyEnv: String?
    /// Send llama.cpp's sampling fields (`top_k`, `min_p`, `cache_prompt`, `ignore_eos`) on the OpenAI APIs too.
    package var llamaSampling: Bool
    /// Retries of a 429 answer before the reply falls back as `rate-limited`.
    package var rateLimitRetries: Int

    enum CodingKeys: String, CodingKey {
        case api, model, apiKeyEnv = "api_key_env", llamaSampling = "llama_sampling", rateLimitRetries = "rate_limit_retries"
    }

    package init(api: API = .llama, model: String? = nil, apiKeyEnv: String? = nil, llamaSampling: Bool = true, rateLimitRetries: Int = 3) {
        self.api = api
        self.model = model
        self.apiKeyEnv = apiKeyEnv
        self.llamaSampling = llamaSampling
        self.rateLimitRetries = rateLimitRetries
    }

    package init(from decoder: Decoder) throws {
        try StrictJSON.rejectUnknownKeys(in: decoder, allowed: CodingKeys.allNames)
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = BackendSettings()
        self.init(api: try c.decodeIfPresent(API.self, forKey: .api) ?? defaults.api, model: try c.decodeIfPresent(String.self, forKey: .model),
                  apiKeyEnv: try c.decodeIfPresent(String.self, forKey: .apiKeyEnv),
                  llamaSampling: try c.decodeIfPresent(Bool.self, forKey: .llamaSampling) ?? defaults.llamaSampling,
                  rateLimitRetries: try c.decodeIfPresent(Int.self, forKey: .rateLimitRetries) ?? defaults.rateLimitRetries)
        // Never echo the value: it may be the key itself, pasted where the variable's name belongs.
        try StrictJSON.check(apiKeyEnv.map(APIKey.isVariableName) ?? true, "api_key_env", in: decoder,
                             "must name an environment variable (e.g. OPENAI_API_KEY), not hold the key; the value is not shown")
        try StrictJSON.check((0...10).contains(rateLimitRetries), "rate_limit_retries", in: decoder, "must be in 0...10, not \(rateLimitRetries)")
    }
}

extension BackendSettings.CodingKeys: CaseIterable {
    static var allNames: [String] { allCases.map(\.rawValue) }
}
