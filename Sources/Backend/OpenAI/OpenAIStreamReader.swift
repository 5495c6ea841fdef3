import Support
import Foundation

/// Turns the timestamped bytes of one streamed OpenAI-compatible response into a `Completion`:
/// TTFT and token events from the client's clock, token counts from `usage` (nil without it), the
/// server's timings when it is llama.cpp.
struct OpenAIStreamReader {
    let url: URL
    let endpoint: OpenAIEndpoint
    private var response: StreamedResponse
    private var content = ""
    private var firstContentAt: ContinuousClock.Instant?
    private var firstTokenAt: ContinuousClock.Instant?
    private var lastTokenAt: ContinuousClock.Instant?
    private var tokenEvents = 0
    private var finishReason: String?
    private var usage: OpenAIWireFormat.Usage?
    private var timings: WireFormat.Timings?
    private var done: ContinuousClock.Instant?
    private var lastEventAt: ContinuousClock.Instant?

    init(url: URL, endpoint: OpenAIEndpoint) {
        self.url = url
        self.endpoint = endpoint
        response = StreamedResponse(url: url)
    }

    mutating func consume(_ event: TransportEvent) throws {
        let (payloads, at) = try response.consume(event)
        for payload in payloads {
            try take(payload, at: at)
        }
    }

    mutating func finish(startedAt start: ContinuousClock.Instant) throws -> Completion {
        if response.status != 200 {
            try OpenAIClient.check(status: response.status, body: response.head, contentType: response.contentType, size: response.bodyBytes,
                                   url: url, endpoint: endpoint)
        }
        let (last, dangling) = response.finish()
        if let last, !dangling { try take(last, at: .now) }
        guard let finishReason, let end = done ?? lastEventAt else {
            // Bytes but not one event: a page or a body of another API, not a stream that broke off.
            if lastEventAt == nil && response.bodyBytes > 0 {
                throw BackendError.notOpenAICompatible(url: url.absoluteString, endpoint: url.path, detail: "the answer is not an event stream")
            }
            throw BackendError.streamCutOff(url: url.absoluteString, detail: "stream ended before a finish_reason")
        }
        func since(_ instant: ContinuousClock.Instant?) -> Double? { instant.map { ($0 - start).milliseconds } }
        let client = ClientTimings(wallMs: (end - start).milliseconds, headersMs: since(response.headersAt),
                                   timeToFirstTokenMs: since(firstContentAt), firstTokenEventMs: since(firstTokenAt),
                                   lastTokenEventMs: since(lastTokenAt), tokenEvents: tokenEvents)
        var completion = Completion(content: redacted(content), stopType: OpenAIWireFormat.stopType(finishReason), stoppingWord: "", truncated: false,
                                    tokensPredicted: usage?.completion_tokens, tokensEvaluated: usage?.prompt_tokens,
                                    server: timings?.value, client: client, settings: nil)
        // A proxy that reflects the request's headers into the text would put the key into replies.jsonl and the page.
        completion.secretRedacted = completion.content != content
        return completion
    }

    private mutating func take(_ payload: String, at: ContinuousClock.Instant) throws {
        if payload == "[DONE]" {
            done = at
            return
        }
        let chunk: OpenAIWireFormat.Chunk
        do {
            chunk = try JSONDecoder().decode(OpenAIWireFormat.Chunk.self, from: Data(payload.utf8))
        } catch {
            // Never the payload: it would carry generated text into an error message.
            throw BackendError.notOpenAICompatible(url: url.absoluteString, endpoint: url.path, detail: "an event is not a completion chunk")
        }
        if let error = chunk.error {
            throw BackendError.streamError(code: error.code, message: redacted(error.summary), url: url.absoluteString)
        }
        guard chunk.choices != nil || chunk.usage != nil else {
            throw BackendError.notOpenAICompatible(url: url.absoluteString, endpoint: url.path, detail: "an event has neither choices nor usage")
        }
        lastEventAt = at
        if let usage = chunk.usage { self.usage = usage }
        if let timings = chunk.timings { self.timings = timings }
        guard let choice = chunk.choices?.first else { return }
        if let reason = choice.finish_reason { finishReason = reason }
        // A token event is a chunk with text: servers also send chunks with none (vLLM's opening
        // role-only delta, the finish chunk), which are not tokens.
        if let piece = choice.text ?? choice.delta?.content, !piece.isEmpty {
            content += piece
            tokenEvents += 1
            if firstTokenAt == nil { firstTokenAt = at }
            lastTokenAt = at
            if firstContentAt == nil { firstContentAt = at }
        }
    }

    private func redacted(_ text: String) -> String {
        Redaction.secrets(in: endpoint.key.map { $0.redact(text) } ?? text)
    }
}
