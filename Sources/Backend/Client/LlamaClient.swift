import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// HTTP client for one llama-server: streamed `/completion` with client-side timings, `/health`, `/props`.
///
/// It never retries: every failure surfaces as a `BackendError` for the caller to record.
package struct LlamaClient: TextCompleting {
    package let baseURL: URL
    /// Deadline for one whole request, in seconds (connect, prompt processing and generation).
    package var requestTimeout: Double
    /// The HTTP client under it; `.automatic` but in `bench backend`'s URLSession rows.
    package var transport: ClientTransport

    package init(baseURL: URL, requestTimeout: Double = 120, transport: ClientTransport = .automatic) {
        self.baseURL = baseURL
        self.requestTimeout = requestTimeout
        self.transport = transport
    }

    package func complete(_ request: CompletionRequest) async throws -> Completion {
        let url = baseURL.appendingPathComponent("completion")
        var urlRequest = URLRequest(url: url)
        urlRequest.httpMethod = "POST"
        urlRequest.setValue("application/json", forHTTPHeaderField: "Content-Type")
        // A fresh connection per request: reusing one the server has closed lost requests until the deadline.
        urlRequest.setValue("close", forHTTPHeaderField: "Connection")
        urlRequest.httpBody = try JSONEncoder().encode(request.body)

        var reader = CompletionStreamReader(url: url)
        let start = ContinuousClock.now
        for try await event in Self.stream(urlRequest, deadline: requestTimeout, transport: transport) {
            try reader.consume(event)
        }
        return try reader.finish(startedAt: start).checked(against: request)
    }

    /// Returns when `/health` answers 200; throws `.serverLoading` on 503 and the usual transport errors.
    package func health(timeout: Double = 5) async throws {
        let url = baseURL.appendingPathComponent("health")
        let (status, contentType, body) = try await Self.fetch(URLRequest(url: url), deadline: timeout)
        try Self.check(status: status, body: body, contentType: contentType, size: body.count, url: url)
    }

    /// Plain http goes over our own socket client; https (a remote box), or every URL when asked, through URLSession.
    static func stream(_ request: URLRequest, deadline: Double,
                       transport: ClientTransport = .automatic) -> AsyncThrowingStream<TransportEvent, Error> {
        transport == .automatic && request.url.map(SocketTransport.handles) == true
            ? SocketTransport.stream(request, deadline: deadline)
            : HTTPTransport.shared.stream(request, deadline: deadline)
    }

    /// A whole short answer (`/health`, `/props`, `/tokenize`), refused past `ResponseLimits.maxLineBytes`.
    static func fetch(_ request: URLRequest, deadline: Double) async throws -> (status: Int, contentType: String?, body: Data) {
        var status = 0
        var contentType: String?
        var body = Data()
        for try await event in stream(request, deadline: deadline) {
            switch event {
            case .response(let code, let type, _):
                status = code
                contentType = type
            case .data(let chunk, _):
                body.append(chunk)
                if body.count > ResponseLimits.maxLineBytes {
                    throw BackendError.responseTooLarge(url: request.url?.absoluteString ?? "?", part: "a response body", limit: ResponseLimits.maxLineBytes)
                }
            }
        }
        return (status, contentType, body)
    }

    /// The server's model path, build and context size.
    package func props(timeout: Double = 10) async throws -> ServerProps {
        let url = baseURL.appendingPathComponent("props")
        let (status, contentType, body) = try await Self.fetch(URLRequest(url: url), deadline: timeout)
        try Self.check(status: status, body: body, contentType: contentType, size: body.count, url: url)
        do {
            return try JSONDecoder().decode(WireFormat.Props.self, from: body).value
        } catch {
            throw BackendError.malformedResponse(url: url.absoluteString, detail: "/props: \(error)")
        }
    }

    /// Throws unless `status` is 200; `body` is the start of the answer, `size` its whole length.
    static func check(status: Int, body: Data, contentType: String?, size: Int, url: URL) throws {
        switch status {
        case 200: return
        case 503: throw BackendError.serverLoading(url: url.absoluteString)
        default:
            throw BackendError.httpStatus(code: status, message: WireFormat.errorMessage(body, contentType: contentType, size: size),
                                          url: url.absoluteString)
        }
    }
}

extension LlamaClient {
    /// The model's token ids for `text` (no BOS), from `/tokenize`.
    package func tokenize(_ text: String, timeout: Double = 10) async throws -> [Int] {
        struct Body: Encodable { let content: String; let add_special = false }
        struct Answer: Decodable { let tokens: [Int] }
        return try await post("tokenize", Body(content: text), timeout: timeout, as: Answer.self).tokens
    }

    /// The text of `tokens`, from `/detokenize`.
    package func detokenize(_ tokens: [Int], timeout: Double = 10) async throws -> String {
        struct Body: Encodable { let tokens: [Int] }
        struct Answer: Decodable { let content: String }
        return try await post("detokenize", Body(tokens: tokens), timeout: timeout, as: Answer.self).content
    }

    private func post<Body: Encodable, Answer: Decodable>(_ path: String, _ body: Body, timeout: Double,
                                                          as: Answer.Type) async throws -> Answer {
        let url = baseURL.appendingPathComponent(path)
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try JSONEncoder().encode(body)
        let (status, contentType, data) = try await Self.fetch(request, deadline: timeout)
        try Self.check(status: status, body: data, contentType: contentType, size: data.count, url: url)
        do {
            return try JSONDecoder().decode(Answer.self, from: data)
        } catch {
            throw BackendError.malformedResponse(url: url.absoluteString, detail: "/\(path): \(error)")
        }
    }
}
