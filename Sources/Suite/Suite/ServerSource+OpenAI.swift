import Foundation
import Generation
import Backend

extension ServerSource {
    /// The API replies to `url` go through: the profile's when it names an OpenAI-compatible one; else
    /// OpenAI completions when the URL's path ends in `/v1` (an OpenAI-compatible root); else native.
    package static func api(profile: ModelProfile, url: URL) -> BackendSettings.API {
        if profile.backend.api != .llama { return profile.backend.api }
        return url.path.hasSuffix("/v1") || url.path.hasSuffix("/v1/") ? .openAICompletions : .llama
    }

    /// The OpenAI-compatible endpoint at `url` for `profile`, with the key read from the environment
    /// variable `--api-key-env` or the profile names; nil when replies go through the native API.
    package func openAIEndpoint(profile: ModelProfile, url: URL, environment: [String: String]) -> OpenAIEndpoint? {
        guard let api = Self.api(profile: profile, url: url).openAI else { return nil }
        let variable = apiKeyEnv ?? profile.backend.apiKeyEnv
        return OpenAIEndpoint(baseURL: url, api: api, model: profile.backend.model,
                              key: variable.flatMap { APIKey.from(environment: environment, name: $0) }, keyVariable: variable,
                              llamaSampling: profile.backend.llamaSampling, rateLimitRetries: profile.backend.rateLimitRetries)
    }
}
