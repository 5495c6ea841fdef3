import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Plain-HTTP/1.1 requests over a TCP socket served by one thread per request.
///
/// Why not URLSession: on Linux, FoundationNetworking keeps a core 40–70 % busy (mostly in system
/// calls) for as long as a request is in flight — measured 73 ms of CPU per streamed token. On a
/// two-core machine that is CPU taken from llama-server while it generates, i.e. the harness would
/// slow down the very thing it measures. This transport blocks in `poll` and costs nothing while it
/// waits. It speaks only what llama-server needs: `Connection: close`, fixed-length, chunked or
/// until-close bodies, no TLS (https URLs still go through URLSession).
enum SocketTransport {
    static func stream(_ request: URLRequest, deadline: Double) -> AsyncThrowingStream<TransportEvent, Error> {
        let (stream, continuation) = AsyncThrowingStream<TransportEvent, Error>.makeStream()
        let connection = SocketConnection(request: request, deadline: deadline, continuation: continuation)
        continuation.onTermination = { reason in
            if case .cancelled = reason { connection.cancel() }
        }
        let thread = Thread { connection.run() }
        thread.name = "LlamaBackend.SocketTransport"
        thread.start()
        return stream
    }
}

/// One request's socket, owned by its thread; `cancel()` may come from any thread.
final class SocketConnection: @unchecked Sendable {
    private let request: URLRequest
    private let deadline: Double
    private let continuation: AsyncThrowingStream<TransportEvent, Error>.Continuation
    private let url: String
    private let state = Mutex<(fd: Int32, cancelled: Bool)>((-1, false))
    private let end: ContinuousClock.Instant

    init(request: URLRequest, deadline: Double,
         continuation: AsyncThrowingStream<TransportEvent, Error>.Continuation) {
        self.request = request
        self.deadline = deadline
        self.continuation = continuation
        url = request.url?.absoluteString ?? "?"
        end = .now + .milliseconds(Int(deadline * 1000))
    }

    /// Wakes the thread out of `poll`; it then ends the stream with `CancellationError`.
    func cancel() {
        state.withLock { state in
            state.cancelled = true
            if state.fd >= 0 { shutdown(state.fd, Int32(SHUT_RDWR)) }
        }
    }

    func run() {
        var fd: Int32 = -1
        do {
            fd = try openConnection()
            try sendAll(fd, head() + (request.httpBody ?? Data()))
            var reader = HTTPResponseReader()
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            while !reader.isComplete {
                try wait(fd, for: Int16(POLLIN))
                let count = recv(fd, &buffer, buffer.count, 0)
                let now = ContinuousClock.now
                if count < 0 {
                    if errno == EINTR || errno == EAGAIN { continue }
                    throw lost("recv: \(String(cString: strerror(errno)))", afterHeaders: reader.status != nil)
                }
                let events = try reader.feed(buffer[0..<count], at: now, url: url)
                for event in events { continuation.yield(event) }
                if count == 0 && !reader.isComplete {
                    throw lost("connection closed before the response was complete", afterHeaders: reader.status != nil)
                }
            }
            close(fd)
            continuation.finish()
        } catch {
            if fd >= 0 { close(fd) }
            let cancelled = state.withLock { $0.cancelled }
            continuation.finish(throwing: cancelled ? CancellationError() : error)
        }
        state.withLock { $0.fd = -1 }
    }

    private func head() -> Data {
        let target = request.url.map { url -> String in
            let path = url.path.isEmpty ? "/" : url.path
            return url.query.map { "\(path)?\($0)" } ?? path
        } ?? "/"
        var lines = ["\(request.httpMethod ?? "GET") \(target) HTTP/1.1", "Host: \(hostHeader)",
                     "Connection: close", "Accept: */*"]
        for (name, value) in request.allHTTPHeaderFields ?? [:] where name.lowercased() != "content-length" {
            lines.append("\(name): \(value)")
        }
        if let body = request.httpBody { lines.append("Content-Length: \(body.count)") }
        return Data((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8)
    }

    private var hostHeader: String {
        let host = request.url?.host ?? "localhost"
        return request.url?.port.map { "\(host):\($0)" } ?? host
    }

    /// Non-blocking connect to the first address that accepts, within the deadline.
    private func openConnection() throws -> Int32 {
        guard let host = request.url?.host else { throw BackendError.transport(url: url, detail: "no host in URL") }
        let port = request.url?.port ?? 80
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
        hints.ai_socktype = SOCK_STREAM
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            throw BackendError.transport(url: url, detail: "cannot resolve \(host): \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(list) }
        var refused = false
        var lastError = "no address"
        for address in sequence(first: first, next: { $0.pointee.ai_next }) {
            let fd = socket(address.pointee.ai_family, address.pointee.ai_socktype, address.pointee.ai_protocol)
            guard fd >= 0 else { continue }
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL, 0) | O_NONBLOCK)
            var one: Int32 = 1
            setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
            state.withLock { $0.fd = fd }
            if connect(fd, address.pointee.ai_addr, address.pointee.ai_addrlen) == 0 || errno == EINPROGRESS {
                do {
                    try wait(fd, for: Int16(POLLOUT))
                    var error: Int32 = 0
                    var length = socklen_t(MemoryLayout<Int32>.size)
                    getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length)
                    if error == 0 { return fd }
                    refused = refused || error == ECONNREFUSED
                    lastError = String(cString: strerror(error))
                } catch {
                    close(fd)
                    throw error
                }
            } else {
                refused = refused || errno == ECONNREFUSED
                lastError = String(cString: strerror(errno))
            }
            state.withLock { $0.fd = -1 }
            close(fd)
        }
        if refused { throw BackendError.connectionRefused(url: url) }
        throw BackendError.transport(url: url, detail: "connect: \(lastError)")
    }

    private func sendAll(_ fd: Int32, _ data: Data) throws {
        var offset = 0
        let bytes = [UInt8](data)
        while offset < bytes.count {
            try wait(fd, for: Int16(POLLOUT))
            let sent = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw BackendError.transport(url: url, detail: "send: \(String(cString: strerror(errno)))")
            }
            offset += sent
        }
    }

    /// Blocks until `fd` is ready for `events`, the deadline passes (timeout) or `cancel()` shuts it.
    private func wait(_ fd: Int32, for events: Int16) throws {
        while true {
            if state.withLock({ $0.cancelled }) { throw CancellationError() }
            let remaining = (end - .now).milliseconds
            if remaining <= 0 { throw BackendError.timeout(url: url, seconds: deadline) }
            var entry = pollfd(fd: fd, events: events, revents: 0)
            let ready = poll(&entry, 1, Int32(min(remaining, 60_000).rounded(.up)))
            if ready > 0 { return }
            if ready < 0 && errno != EINTR {
                throw BackendError.transport(url: url, detail: "poll: \(String(cString: strerror(errno)))")
            }
        }
    }

    /// The request went out and the connection broke: the answer is cut off, headers or not.
    private func lost(_ detail: String, afterHeaders: Bool) -> BackendError {
        .streamCutOff(url: url, detail: afterHeaders ? detail : "\(detail), before the response headers")
    }
}
