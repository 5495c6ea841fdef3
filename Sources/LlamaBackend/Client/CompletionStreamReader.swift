import Foundation

/// Turns the timestamped bytes of one `/completion` response into a `Completion`, or a typed error.
struct CompletionStreamReader {
    let url: URL
    private var status = 0
    private var headersAt: ContinuousClock.Instant?
    private var errorBody = Data()
    private var parser = SSEParser()
    private var content = ""
    private var firstContentAt: ContinuousClock.Instant?
    private var contentEvents = 0
    private var final: (event: WireFormat.Event, at: ContinuousClock.Instant)?

    init(url: URL) {
        self.url = url
    }

    mutating func consume(_ event: TransportEvent) throws {
        switch event {
        case .response(let code, let at):
            status = code
            headersAt = at
        case .data(let chunk, let at):
            guard status == 200 else {
                errorBody.append(chunk)
                return
            }
            for payload in parser.feed(chunk) {
                try take(payload, at: at)
            }
        }
    }

    mutating func finish(startedAt start: ContinuousClock.Instant) throws -> Completion {
        if status != 200 {
            try LlamaClient.check(status: status, body: errorBody, url: url)
        }
        let (last, dangling) = parser.finish()
        if let last { try take(last, at: .now) }
        guard let (event, end) = final else {
            let detail = dangling ? "stream ended inside an event" : "stream ended before the final event"
            throw BackendError.streamCutOff(url: url.absoluteString, detail: detail)
        }
        guard let stopType = event.stop_type, let timings = event.timings, let settings = event.generation_settings,
              let predicted = event.tokens_predicted, let evaluated = event.tokens_evaluated else {
            throw BackendError.malformedResponse(url: url.absoluteString, detail: "final event lacks timings, settings or token counts")
        }
        let client = ClientTimings(wallMs: (end - start).milliseconds,
                                   timeToFirstTokenMs: firstContentAt.map { ($0 - start).milliseconds },
                                   headersMs: headersAt.map { ($0 - start).milliseconds },
                                   contentEvents: contentEvents)
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
            throw BackendError.malformedResponse(url: url.absoluteString, detail: "event is not completion JSON: \(payload.prefix(80))")
        }
        if let error = event.error {
            throw BackendError.httpStatus(code: error.code ?? 500, message: error.summary, url: url.absoluteString)
        }
        if let piece = event.content, !piece.isEmpty {
            content += piece
            contentEvents += 1
            if firstContentAt == nil { firstContentAt = at }
        }
        if event.stop == true { final = (event, at) }
    }
}
