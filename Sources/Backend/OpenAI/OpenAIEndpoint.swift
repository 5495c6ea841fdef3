import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Which OpenAI-compatible API the replies go through.
package enum OpenAIAPI: String, Sendable, Codable, CaseIterable {
    /// `/v1/completions`: the plain-text prompt, as a base model needs.
    case completions
    /// `/v1/chat/completions`: the prompt as one user message; the server applies the model's chat template.
    case chat

    /// The path under the base URL (`…/v1`).
    package var path: String { self == .completions ? "completions" : "chat/completions" }
}

/// An OpenAI-compatible server (llama.cpp, vLLM, Ollama, TGI…): where, which API, which model, which key.
package struct OpenAIEndpoint: Sendable, Equatable {
    /// The API root, usually ending in `/v1`; the endpoints are `<base>/completions`, `<base>/models`….
    package var baseURL: URL
    package var api: OpenAIAPI
    /// The model name sent with every request; nil takes the server's only model (see `OpenAIClient.resolve`).
    package var model: String?
    /// Sent as `Authorization: Bearer …`; nil sends no header.
    package var key: APIKey?
    /// The environment variable the key is read from, named in `unauthorized` errors (never the key).
    package var keyVariable: String?
    /// Also send llama.cpp's sampling fields (`top_k`, `min_p`, `cache_prompt`, `ignore_eos`), which
    /// llama.cpp and vLLM honour; off for a server that refuses fields the OpenAI API does not define.
    package var llamaSampling: Bool
    /// How often a 429 (rate limited) answer is retried before the request fails with `rateLimited`.
    package var rateLimitRetries: Int
    /// The first wait after a 429, doubled at each further retry.
    package var rateLimitBackoff: Duration

    package init(baseURL: URL, api: OpenAIAPI = .completions, model: String? = nil, key: APIKey? = nil, keyVariable: String? = nil,
                llamaSampling: Bool = true, rateLimitRetries: Int = 3, rateLimitBackoff: Duration = .milliseconds(500)) {
        self.baseURL = baseURL
        self.api = api
        self.model = model
        self.key = key
        self.keyVariable = keyVariable
        self.llamaSampling = llamaSampling
        self.rateLimitRetries = rateLimitRetries
        self.rateLimitBackoff = rateLimitBackoff
    }

    /// A request to `<base>/<path>` carrying the key, if any.
    func request(_ path: String, body: Data? = nil) -> URLRequest {
        var request = URLRequest(url: baseURL.appendingPathComponent(path))
        if let body {
            request.httpMethod = "POST"
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = body
        }
        request.setValue("close", forHTTPHeaderField: "Connection")
        if let key { request.setValue("Bearer \(key.value)", forHTTPHeaderField: "Authorization") }
        return request
    }
}
