import Support
import Foundation

/// Turns the timestamped bytes of one `/completion` response into a `Completion`, or a typed error.
struct CompletionStreamReader {
    let url: URL
    private var response: StreamedResponse
    private var content = ""
    private var firstContentAt: ContinuousClock.Instant?
    private var firstTokenAt: ContinuousClock.Instant?
    private var lastTokenAt: ContinuousClock.Instant?
    private var tokenEvents = 0
    private var final: (event: WireFormat.Event, at: ContinuousClock.Instant)?

    init(url: URL) {
        self.url = url
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
            try LlamaClient.check(status: response.status, body: response.head, contentType: response.contentType, size: response.bodyBytes, url: url)
        }
        let (last, dangling) = response.finish()
        // A page from a proxy or another server: say what came back rather than "cut off".
        if !response.isEventStream || (response.bodyBytes > 0 && !response.parser.sawData) {
            throw BackendError.notAnEventStream(url: url.absoluteString,
                                                body: ResponseLimits.describe(contentType: response.contentType, head: response.head, size: response.bodyBytes))
        }
        if dangling {
            throw BackendError.streamCutOff(url: url.absoluteString, detail: "stream ended inside an event")
        }
        // A complete last line without its blank line still ends an event.
        if let last { try take(last, at: .now) }
        guard let (event, end) = final else {
            throw BackendError.streamCutOff(url: url.absoluteString, detail: "stream ended before the final event")
        }
        guard let stopType = event.stop_type, let timings = event.timings, let settings = event.generation_settings,
              let predicted = event.tokens_predicted, let evaluated = event.tokens_evaluated else {
            throw BackendError.malformedResponse(url: url.absoluteString, detail: "final event lacks timings, settings or token counts")
        }
        func since(_ instant: ContinuousClock.Instant?) -> Double? { instant.map { ($0 - start).milliseconds } }
        let client = ClientTimings(wallMs: (end - start).milliseconds, headersMs: since(response.headersAt),
                                   timeToFirstTokenMs: since(firstContentAt), firstTokenEventMs: since(firstTokenAt),
                                   lastTokenEventMs: since(lastTokenAt), tokenEvents: tokenEvents)
        return Completion(content: content, stopType: StopType(rawValue: stopType) ?? .none,
                          stoppingWord: event.stopping_word ?? "", truncated: event.truncated ?? false,
                          tokensPredicted: predicted, tokensEvaluated: evaluated, server: timings.value,
                          client: client, settings: settings.value)
    }

    private mutating func take(_ payload: String, at: ContinuousClock.Instant) throws {
        if final != nil {
            throw BackendError.malformedResponse(url: url.absoluteString, detail: "event after the final event")
        }
        let event: WireFormat.Event
        do {
            event = try JSONDecoder().decode(WireFormat.Event.self, from: Data(payload.utf8))
        } catch {
            // Its size, not its text: an event may carry the reply.
            throw BackendError.malformedResponse(url: url.absoluteString, detail: "an event that is not completion JSON (\(payload.utf8.count) bytes)")
        }
        if let error = event.error {
            throw BackendError.streamError(code: error.code, message: error.summary, url: url.absoluteString)
        }
        if event.stop == true {
            final = (event, at)
        } else {
            tokenEvents += 1
            if firstTokenAt == nil { firstTokenAt = at }
            lastTokenAt = at
        }
        if let piece = event.content, !piece.isEmpty {
            content += piece
            if firstContentAt == nil { firstContentAt = at }
        }
    }
}
