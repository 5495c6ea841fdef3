import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// HTTP client for an OpenAI-compatible server: streamed `/v1/completions` or `/v1/chat/completions`
/// timed on the client's clock, over the same transports as `LlamaClient`.
///
/// A 429 (rate limited) is retried with doubling backoff, at most `endpoint.rateLimitRetries` times;
/// every other failure surfaces as a `BackendError` for the caller to record. The key never appears in
/// an error: messages carry the variable's name, and server text is scrubbed of the key.
package struct OpenAIClient: TextCompleting {
    package let endpoint: OpenAIEndpoint
    /// Deadline for one whole request, in seconds.
    package var requestTimeout: Double

    package init(endpoint: OpenAIEndpoint, requestTimeout: Double = 120) {
        self.endpoint = endpoint
        self.requestTimeout = requestTimeout
    }

    package func complete(_ request: CompletionRequest) async throws -> Completion {
        let body = try JSONEncoder().encode(OpenAIRequestBody(request, endpoint: endpoint))
        var attempt = 1
        while true {
            do {
                return try await once(body).checked(against: request)
            } catch BackendError.rateLimited(let url, _) {
                guard attempt <= endpoint.rateLimitRetries else { throw BackendError.rateLimited(url: url, attempts: attempt) }
                try await Task.sleep(for: endpoint.rateLimitBackoff * (1 << (attempt - 1)))
                attempt += 1
            }
        }
    }

    private func once(_ body: Data) async throws -> Completion {
        let request = endpoint.request(endpoint.api.path, body: body)
        var reader = OpenAIStreamReader(url: request.url!, endpoint: endpoint)
        let start = ContinuousClock.now
        for try await event in LlamaClient.stream(request, deadline: requestTimeout) {
            try reader.consume(event)
        }
        return try reader.finish(startedAt: start)
    }

    /// The model names the server serves (`/v1/models`).
    package func models(timeout: Double = 10) async throws -> [String] {
        let request = endpoint.request("models")
        let (status, contentType, body) = try await LlamaClient.fetch(request, deadline: timeout)
        try Self.check(status: status, body: body, contentType: contentType, url: request.url!, endpoint: endpoint)
        do {
            return try JSONDecoder().decode(OpenAIWireFormat.Models.self, from: body).data.map(\.id)
        } catch {
            throw BackendError.notOpenAICompatible(url: request.url!.absoluteString, endpoint: request.url!.path, detail: Self.shape(of: body))
        }
    }

    /// The endpoint with its model settled against `/v1/models`: the profile's name when the server
    /// lists it, the server's only model when none is named; `unknownModel` (listing the server's) otherwise.
    package func resolve(timeout: Double = 10) async throws -> OpenAIEndpoint {
        let available = try await models(timeout: timeout)
        var resolved = endpoint
        let url = endpoint.baseURL.appendingPathComponent("models").absoluteString
        switch endpoint.model {
        case let name? where available.contains(name): return resolved
        case let name?: throw BackendError.unknownModel(url: url, model: name, available: available)
        case nil where available.count == 1: resolved.model = available[0]
        case nil: throw BackendError.unknownModel(url: url, model: "(none set)", available: available)
        }
        return resolved
    }

    /// One tiny request (one token, greedy): proves the endpoint, the model and the key together.
    package func probe() async throws -> Completion {
        try await complete(CompletionRequest(prompt: "Hello", maxTokens: 1, temperature: 0, seed: 1, stop: [], cachePrompt: false,
                                             topK: 1, topP: 1, minP: 0))
    }

    /// Maps a non-200 answer: 401/403 to `unauthorized`, 404 to `notOpenAICompatible`, 429 to
    /// `rateLimited`, 503 to `serverLoading`, the rest to `httpStatus` with the server's message (key scrubbed).
    static func check(status: Int, body: Data, contentType: String?, size: Int? = nil, url: URL, endpoint: OpenAIEndpoint) throws {
        switch status {
        case 200: return
        case 401, 403: throw BackendError.unauthorized(url: url.absoluteString, keyVariable: endpoint.keyVariable)
        case 404: throw BackendError.notOpenAICompatible(url: url.absoluteString, endpoint: url.path, detail: "HTTP 404")
        case 429: throw BackendError.rateLimited(url: url.absoluteString, attempts: 1)
        case 503: throw BackendError.serverLoading(url: url.absoluteString)
        default:
            let message = WireFormat.errorMessage(body, contentType: contentType, size: size ?? body.count)
            throw BackendError.httpStatus(code: status, message: endpoint.key.map { $0.redact(message) } ?? message, url: url.absoluteString)
        }
    }

    /// What a body that is not the expected JSON looks like, without quoting it.
    static func shape(of body: Data) -> String {
        let text = String(decoding: body.prefix(200), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        if text.isEmpty { return "empty body" }
        if text.hasPrefix("<") { return "HTML, not JSON" }
        do {
            _ = try JSONSerialization.jsonObject(with: body)
            return "JSON without a model list"
        } catch {
            return "not JSON"
        }
    }
}
