import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization

/// What a request delivers, stamped with the moment the bytes reached this process.
enum TransportEvent: Sendable {
    case response(status: Int, contentType: String?, at: ContinuousClock.Instant)
    case data(Data, at: ContinuousClock.Instant)
}

/// One delegate-based `URLSession` for all backend requests, turning each task into an async stream.
///
/// FoundationNetworking has no `bytes(for:)`, so streaming goes through delegate callbacks; the
/// arrival time is taken in the callback, not when a consumer gets round to reading.
final class HTTPTransport: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    static let shared = HTTPTransport()

    private struct Pending {
        let continuation: AsyncThrowingStream<TransportEvent, Error>.Continuation
        let url: String
        let deadline: Double
        var timedOut = false
        var receivedHeaders = false
        var lines = ResponseLimits.LineGuard()
    }

    private let pending = Mutex<[Int: Pending]>([:])
    // `session` is set once in init and only read afterwards; the delegate methods need `self` first.
    private var session: URLSession!

    private override init() {
        super.init()
        let configuration = URLSessionConfiguration.ephemeral
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpMaximumConnectionsPerHost = 64
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        queue.name = "LlamaBackend.HTTPTransport"
        session = URLSession(configuration: configuration, delegate: self, delegateQueue: queue)
    }

    /// Starts `request`; the stream fails with `BackendError.timeout` if it is not finished within
    /// `deadline` seconds. Cancelling the consumer cancels the request.
    func stream(_ request: URLRequest, deadline: Double) -> AsyncThrowingStream<TransportEvent, Error> {
        var request = request
        // URLSession's own timeout is an idle timeout; the whole-request deadline is ours below.
        request.timeoutInterval = max(deadline, 1)
        let url = request.url?.absoluteString ?? "?"
        let (stream, continuation) = AsyncThrowingStream<TransportEvent, Error>.makeStream()
        let task = session.dataTask(with: request)
        let id = task.taskIdentifier
        pending.withLock { $0[id] = Pending(continuation: continuation, url: url, deadline: deadline) }
        continuation.onTermination = { [weak task] reason in
            if case .cancelled = reason { task?.cancel() }
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + deadline) { [weak self, weak task] in
            let isPending = self?.pending.withLock { table -> Bool in
                guard table[id] != nil else { return false }
                table[id]?.timedOut = true
                return true
            } ?? false
            if isPending { task?.cancel() }
        }
        task.resume()
        return stream
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        let now = ContinuousClock.now
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        let entry = pending.withLock { table -> Pending? in
            table[dataTask.taskIdentifier]?.receivedHeaders = true
            return table[dataTask.taskIdentifier]
        }
        entry?.continuation.yield(.response(status: status, contentType: response.mimeType, at: now))
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let now = ContinuousClock.now
        // A line past the limit ends the request here, so no more of it is queued for the reader.
        let (entry, admitted) = pending.withLock { table -> (Pending?, Bool) in
            guard var entry = table[dataTask.taskIdentifier] else { return (nil, true) }
            let admitted = entry.lines.admit(data)
            table[dataTask.taskIdentifier] = admitted ? entry : nil
            return (entry, admitted)
        }
        guard let entry else { return }
        if admitted {
            entry.continuation.yield(.data(data, at: now))
        } else {
            entry.continuation.finish(throwing: BackendError.responseTooLarge(url: entry.url, part: "a response line", limit: ResponseLimits.maxLineBytes))
            dataTask.cancel()
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        guard let entry = pending.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        if let error {
            entry.continuation.finish(throwing: Self.map(error, url: entry.url, entry: entry))
        } else {
            entry.continuation.finish()
        }
    }

    private static func map(_ error: Error, url: String, entry: Pending) -> Error {
        if entry.timedOut { return BackendError.timeout(url: url, seconds: entry.deadline) }
        let nsError = error as NSError
        guard nsError.domain == NSURLErrorDomain else {
            return BackendError.transport(url: url, detail: nsError.localizedDescription)
        }
        switch nsError.code {
        case NSURLErrorCancelled:
            return CancellationError()
        case NSURLErrorCannotConnectToHost:
            return BackendError.connectionRefused(url: url)
        case NSURLErrorTimedOut:
            return BackendError.timeout(url: url, seconds: entry.deadline)
        case _ where entry.receivedHeaders:
            // Whatever libcurl calls it ("transfer closed with outstanding read data", "connection
            // reset"), a failure after the headers means the body was cut off.
            return BackendError.streamCutOff(url: url, detail: nsError.localizedDescription)
        case NSURLErrorNetworkConnectionLost:
            return BackendError.streamCutOff(url: url, detail: "connection lost")
        case NSURLErrorBadServerResponse, NSURLErrorCannotParseResponse:
            return BackendError.malformedResponse(url: url, detail: nsError.localizedDescription)
        default:
            return BackendError.transport(url: url, detail: "\(nsError.localizedDescription) (URLError \(nsError.code))")
        }
    }
}
