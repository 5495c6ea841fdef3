import Foundation

/// What reading one streamed response shares between the native and the OpenAI-compatible APIs: the
/// status and content type, the start of the body (kept, capped, to say what an error or a body that is
/// no event stream was), the body's size, and its events parsed under the line cap.
struct StreamedResponse {
    let url: URL
    private(set) var status = 0
    private(set) var contentType: String?
    private(set) var headersAt: ContinuousClock.Instant?
    private(set) var head = Data()
    private(set) var bodyBytes = 0
    private(set) var parser = SSEParser()

    init(url: URL) {
        self.url = url
    }

    /// llama-server streams `text/event-stream`; a body without a content type is given the benefit of the doubt.
    var isEventStream: Bool {
        contentType.map { $0.lowercased().contains("text/event-stream") } ?? true
    }

    /// The events `event` completes (none for an error body or a body that is no event stream), with the
    /// time their bytes arrived; past the line cap, `responseTooLarge`.
    mutating func consume(_ event: TransportEvent) throws -> (payloads: [String], at: ContinuousClock.Instant) {
        switch event {
        case .response(let code, let type, let at):
            status = code
            contentType = type
            headersAt = at
            return ([], at)
        case .data(let chunk, let at):
            bodyBytes += chunk.count
            let keep = status == 200 ? ResponseLimits.sniffBytes : ResponseLimits.maxErrorBodyBytes
            if head.count < keep { head.append(chunk.prefix(keep - head.count)) }
            guard status == 200, isEventStream else { return ([], at) }
            let payloads = parser.feed(chunk)
            if parser.oversized {
                throw BackendError.responseTooLarge(url: url.absoluteString, part: "an event", limit: ResponseLimits.maxLineBytes)
            }
            return (payloads, at)
        }
    }

    /// The last event if the stream ended on a complete line without its blank line, and whether it ended
    /// inside an event.
    mutating func finish() -> (last: String?, dangling: Bool) {
        let (event, dangling) = parser.finish()
        return (event, dangling)
    }
}
