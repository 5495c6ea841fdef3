import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import TestSupport
@testable import Backend

/// Answers the real llama-server cannot be made to give on demand (a 429, a server that reports no
/// usage, a chunk of the wrong shape), from a loopback stub.
@Suite struct OpenAIStubTests {
    let request = CompletionRequest(prompt: "The capital of France is", maxTokens: 4)

    static func chunk(_ text: String, finish: String? = nil) -> String {
        let reason = finish.map { "\"\($0)\"" } ?? "null"
        return "data: {\"choices\":[{\"text\":\"\(text)\",\"index\":0,\"finish_reason\":\(reason)}]}\n\n"
    }

    func endpoint(_ stub: LoopbackStub, retries: Int = 3) -> OpenAIEndpoint {
        OpenAIEndpoint(baseURL: stub.url.appendingPathComponent("v1"), model: "m", key: APIKey("sk-stub-secret"), keyVariable: "STUB_KEY",
                       rateLimitRetries: retries, rateLimitBackoff: .milliseconds(40))
    }

    /// The stub answers 429 to every request (llama-server never rate-limits): the client retries with
    /// doubling backoff (40 + 80 ms) and then fails with `rateLimited` counting every attempt.
    @Test func rateLimitingIsRetriedWithBackoffThenTyped() async throws {
        let body = "{\"error\":{\"code\":429,\"message\":\"slow down\",\"type\":\"rate_limit_error\"}}"
        let stub = try LoopbackStub(pieces: [LoopbackStub.head(status: "429 Too Many Requests", contentType: "application/json"), body])
        defer { stub.stop() }
        let start = ContinuousClock.now
        let error = await backendError { _ = try await OpenAIClient(endpoint: endpoint(stub, retries: 2)).complete(request) }
        #expect(error == .rateLimited(url: "\(stub.url.absoluteString)/v1/completions", attempts: 3))
        #expect(ContinuousClock.now - start >= .milliseconds(120))
    }

    /// A server that sends no `usage` (streams without `stream_options` support): counts are unknown, not guessed.
    @Test func noUsageLeavesTokenCountsUnknown() async throws {
        let stub = try LoopbackStub(pieces: [LoopbackStub.head(status: "200 OK"), Self.chunk(" Paris"), Self.chunk(".", finish: nil),
                                             Self.chunk("", finish: "stop"), "data: [DONE]\n\n"])
        defer { stub.stop() }
        let completion = try await OpenAIClient(endpoint: endpoint(stub)).complete(request)
        #expect(completion.content == " Paris.")
        #expect(completion.tokensPredicted == nil && completion.tokensEvaluated == nil)
        #expect(completion.server == nil && completion.settings == nil)
        #expect(completion.stopType == .stop)
        #expect(completion.client.tokenEvents == 2)
        #expect(completion.client.timeToFirstTokenMs != nil)
    }

    @Test func usageChunkGivesTheCounts() async throws {
        let usage = "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":6,\"completion_tokens\":2,\"total_tokens\":8}}\n\n"
        let stub = try LoopbackStub(pieces: [LoopbackStub.head(status: "200 OK"), Self.chunk(" Paris"), Self.chunk("", finish: "length"),
                                             usage, "data: [DONE]\n\n"])
        defer { stub.stop() }
        let completion = try await OpenAIClient(endpoint: endpoint(stub)).complete(request)
        #expect(completion.tokensPredicted == 2 && completion.tokensEvaluated == 6)
        #expect(completion.stopType == .limit)
    }

    /// Neither the chunk nor the key reaches the error: a chunk would carry generated text.
    @Test(arguments: [
        ("text/event-stream", "data: {\"hello\": 1}\n\n", "an event has neither choices nor usage"),
        ("text/event-stream", "data: <html>\n\n", "an event is not a completion chunk"),
        ("text/html", "<!DOCTYPE html><html><body>welcome</body></html>", "the answer is not an event stream"),
        // A body labelled as a page is not read as events, whatever it holds.
        ("text/html", "data: {\"hello\": 1}\n\n", "the answer is not an event stream"),
    ])
    func answersOfAnotherShapeAreNotOpenAICompatible(contentType: String, body: String, detail: String) async throws {
        let stub = try LoopbackStub(pieces: [LoopbackStub.head(status: "200 OK", contentType: contentType), body])
        defer { stub.stop() }
        let error = await backendError { _ = try await OpenAIClient(endpoint: endpoint(stub)).complete(request) }
        #expect(error == .notOpenAICompatible(url: "\(stub.url.absoluteString)/v1/completions", endpoint: "/v1/completions", detail: detail))
    }

    /// A server that echoes the request's headers in its error body does not get the key into the message.
    @Test func anEchoedKeyIsScrubbedFromServerMessages() async throws {
        let body = "{\"error\":{\"code\":400,\"message\":\"bad header Authorization: Bearer sk-stub-secret\",\"type\":\"invalid_request_error\"}}"
        let stub = try LoopbackStub(pieces: [LoopbackStub.head(status: "400 Bad Request", contentType: "application/json"), body])
        defer { stub.stop() }
        let error = try #require(await backendError { _ = try await OpenAIClient(endpoint: endpoint(stub)).complete(request) })
        #expect(!error.description.contains("sk-stub-secret"))
        #expect(error.description.contains("<redacted>"))
    }
}

@Suite struct OpenAIRequestTests {
    let request = CompletionRequest(prompt: "Hi", maxTokens: 8, temperature: 0, seed: 3, stop: ["\n"], cachePrompt: false, topK: 1, topP: 1, minP: 0)

    func body(_ endpoint: OpenAIEndpoint) throws -> [String: Any] {
        let data = try JSONEncoder().encode(OpenAIRequestBody(request, endpoint: endpoint))
        return try #require(JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func completionsSendThePromptAndEverySamplingSetting() throws {
        let json = try body(OpenAIEndpoint(baseURL: URL(string: "http://h/v1")!, model: "m"))
        #expect(json["prompt"] as? String == "Hi" && json["messages"] == nil && json["model"] as? String == "m")
        #expect(json["max_tokens"] as? Int == 8 && json["temperature"] as? Double == 0 && json["seed"] as? Int == 3)
        #expect(json["top_k"] as? Int == 1 && json["min_p"] as? Double == 0 && json["cache_prompt"] as? Bool == false)
        #expect(json["stream"] as? Bool == true && (json["stream_options"] as? [String: Bool]) == ["include_usage": true])
    }

    @Test func chatSendsOneUserMessageAndStrictServersGetOnlyOpenAIFields() throws {
        let json = try body(OpenAIEndpoint(baseURL: URL(string: "http://h/v1")!, api: .chat, llamaSampling: false))
        #expect(json["prompt"] == nil && json["model"] == nil)
        #expect((json["messages"] as? [[String: String]]) == [["role": "user", "content": "Hi"]])
        #expect(json["top_k"] == nil && json["min_p"] == nil && json["cache_prompt"] == nil && json["ignore_eos"] == nil)
    }

    @Test func theKeyNeverPrints() {
        let endpoint = OpenAIEndpoint(baseURL: URL(string: "http://h/v1")!, key: APIKey("sk-very-secret"), keyVariable: "K")
        var dumped = ""
        dump(endpoint, to: &dumped)
        for text in ["\(endpoint)", String(describing: endpoint), String(reflecting: endpoint), dumped] {
            #expect(!text.contains("sk-very-secret"), "\(text)")
        }
        #expect(endpoint.request("completions").value(forHTTPHeaderField: "Authorization") == "Bearer sk-very-secret")
    }
}
