import Support
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ByteIO
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A minimal HTTP/1.1 client over a POSIX socket for plain `http://` servers (llama-server on
/// loopback or a LAN box): one connection per request (`Connection: close`), chunked or sized
/// bodies, and a whole-request deadline enforced with `poll(2)`.
///
/// Why not URLSession: on Linux, FoundationNetworking's libcurl loop cost tens of seconds of CPU over
/// a few dozen streamed requests and occasionally never delivered a finished response until the
/// deadline. Blocking reads on a dedicated thread stamp every chunk the moment it arrives.
enum SocketTransport {
    static func stream(_ request: URLRequest, deadline seconds: Double) -> AsyncThrowingStream<TransportEvent, Error> {
        let (stream, continuation) = AsyncThrowingStream<TransportEvent, Error>.makeStream()
        let connection = Connection()
        continuation.onTermination = { reason in
            if case .cancelled = reason { connection.cancel() }
        }
        let thread = Thread {
            do {
                try connection.run(request, deadline: ContinuousClock.now + .milliseconds(Int(seconds * 1000)), seconds: seconds) {
                    continuation.yield($0)
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        thread.start()
        return stream
    }

    /// Whether `url` is one this transport serves.
    static func handles(_ url: URL) -> Bool { url.scheme == "http" }
}

/// One request on one socket.
final class Connection: Sendable {
    private let descriptor = Mutex<Int32>(-1)
    private let cancelled = Atomic<Bool>(false)

    func cancel() {
        cancelled.store(true, ordering: .relaxed)
        descriptor.withLock { fd in if fd >= 0 { shutdown(fd, Int32(SHUT_RDWR)) } }
    }

    func run(_ request: URLRequest, deadline: ContinuousClock.Instant, seconds: Double, emit: (TransportEvent) -> Void) throws {
        guard let url = request.url, let host = url.host else { throw BackendError.transport(url: "?", detail: "no host in the URL") }
        let label = url.absoluteString
        let fd = try connect(host: host, port: url.port ?? 80, label: label, deadline: deadline, seconds: seconds)
        defer { descriptor.withLock { _ = close($0); $0 = -1 } }
        try send(head(request, url: url, host: host) + (request.httpBody ?? Data()), fd: fd, label: label, deadline: deadline, seconds: seconds)
        var reader = ResponseReader(label: label)
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while true {
            try wait(fd, for: Int16(POLLIN), label: label, deadline: deadline, seconds: seconds)
            let count = read(fd, &buffer, buffer.count)
            let now = ContinuousClock.now
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw BackendError.streamCutOff(url: label, detail: String(cString: strerror(errno)))
            }
            if count == 0 {
                try reader.finish(emit: emit, at: now)
                return
            }
            if try reader.feed(buffer[0..<count], at: now, emit: emit) { return }
        }
    }

    private func head(_ request: URLRequest, url: URL, host: String) -> Data {
        var path = url.path.isEmpty ? "/" : url.path
        if let query = url.query { path += "?\(query)" }
        var lines = ["\(request.httpMethod ?? "GET") \(path) HTTP/1.1", "Host: \(host):\(url.port ?? 80)", "Connection: close", "Accept: */*"]
        for (name, value) in request.allHTTPHeaderFields ?? [:] where name.lowercased() != "connection" && name.lowercased() != "host" {
            lines.append("\(name): \(value)")
        }
        if let body = request.httpBody { lines.append("Content-Length: \(body.count)") }
        return Data((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8)
    }

    private func connect(host: String, port: Int, label: String, deadline: ContinuousClock.Instant, seconds: Double) throws -> Int32 {
        guard let addresses = RawIO.Addresses(host: host, port: port) else {
            throw BackendError.transport(url: label, detail: "cannot resolve host \(host)")
        }
        var refused = false
        for address in addresses.entries {
            let fd = SystemCall.streamSocket(family: address.ai_family, protocol: address.ai_protocol)
            if fd < 0 { continue }
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            descriptor.withLock { $0 = fd }
            if withExtendedLifetime(addresses, { SystemCall.connect(fd, to: address) }) == 0 { return fd }
            if errno == EINPROGRESS {
                try wait(fd, for: Int16(POLLOUT), label: label, deadline: deadline, seconds: seconds)
                var error: Int32 = 0
                var length = socklen_t(MemoryLayout<Int32>.size)
                getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length)
                if error == 0 { return fd }
                refused = refused || error == ECONNREFUSED
            } else {
                refused = refused || errno == ECONNREFUSED
            }
            descriptor.withLock { _ = close($0); $0 = -1 }
        }
        throw refused ? BackendError.connectionRefused(url: label) : BackendError.transport(url: label, detail: "cannot connect to \(host):\(port)")
    }

    private func send(_ data: Data, fd: Int32, label: String, deadline: ContinuousClock.Instant, seconds: Double) throws {
        var offset = 0
        let bytes = [UInt8](data)
        while offset < bytes.count {
            try wait(fd, for: Int16(POLLOUT), label: label, deadline: deadline, seconds: seconds)
            let written = SystemCall.send(fd, bytes[offset...])
            if written < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw BackendError.streamCutOff(url: label, detail: "sending the request: \(String(cString: strerror(errno)))")
            }
            offset += written
        }
    }

    /// Waits until `fd` is ready, the deadline passes (timeout) or the request is cancelled.
    private func wait(_ fd: Int32, for events: Int16, label: String, deadline: ContinuousClock.Instant, seconds: Double) throws {
        while true {
            if cancelled.load(ordering: .relaxed) { throw CancellationError() }
            let remaining = deadline - ContinuousClock.now
            if remaining <= .zero { throw BackendError.timeout(url: label, seconds: seconds) }
            var poller = pollfd(fd: fd, events: events, revents: 0)
            let slice = Int32(min(remaining.milliseconds, 250).rounded(.up))
            let ready = poll(&poller, 1, max(slice, 1))
            if ready > 0 { return }
            if ready < 0 && errno != EINTR { throw BackendError.transport(url: label, detail: String(cString: strerror(errno))) }
        }
    }
}

/// Parses an HTTP/1.1 response incrementally: status line and headers, then a chunked, sized or
/// until-close body, emitting the body bytes as they arrive.
struct ResponseReader {
    let label: String
    private var pending: [UInt8] = []
    private var headersDone = false
    private var chunked = false
    private var remainingBody: Int?
    /// Bytes left in the current chunk; nil while reading a chunk-size line.
    private var chunkLeft: Int?
    private var finished = false
    private var lines = ResponseLimits.LineGuard()

    init(label: String) { self.label = label }

    /// Returns true when the response is complete. A body line longer than `ResponseLimits.maxLineBytes`
    /// fails the request here, on the reading thread, so nothing past the limit is queued for the reader.
    mutating func feed(_ bytes: ArraySlice<UInt8>, at now: ContinuousClock.Instant, emit: (TransportEvent) -> Void) throws -> Bool {
        var lines = self.lines
        var tooLong = false
        let done = try read(bytes, at: now) { event in
            if case .data(let body, _) = event, !lines.admit(body) { tooLong = true }
            if !tooLong { emit(event) }
        }
        self.lines = lines
        if tooLong { throw BackendError.responseTooLarge(url: label, part: "a response line", limit: ResponseLimits.maxLineBytes) }
        return done
    }

    private mutating func read(_ bytes: ArraySlice<UInt8>, at now: ContinuousClock.Instant, emit: (TransportEvent) -> Void) throws -> Bool {
        pending.append(contentsOf: bytes)
        if !headersDone {
            guard let end = Self.find([13, 10, 13, 10], in: pending) else {
                if pending.count > 65_536 { throw BackendError.malformedResponse(url: label, detail: "response headers over 64 KiB") }
                return false
            }
            let head = String(decoding: pending[0..<end], as: UTF8.self)
            pending.removeFirst(end + 4)
            let lines = head.components(separatedBy: "\r\n")
            let parts = lines[0].split(separator: " ")
            guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let status = Int(parts[1]) else {
                throw BackendError.malformedResponse(url: label, detail: "not an HTTP response (a first line of \(lines[0].utf8.count) bytes)")
            }
            var contentType: String?
            for line in lines.dropFirst() {
                let pair = line.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                guard pair.count == 2 else { continue }
                if pair[0].lowercased() == "transfer-encoding", pair[1].lowercased().contains("chunked") { chunked = true }
                if pair[0].lowercased() == "content-length" { remainingBody = Int(pair[1]) }
                if pair[0].lowercased() == "content-type" { contentType = pair[1] }
            }
            headersDone = true
            emit(.response(status: status, contentType: contentType, at: now))
        }
        return try drainBody(at: now, emit: emit)
    }

    private mutating func drainBody(at now: ContinuousClock.Instant, emit: (TransportEvent) -> Void) throws -> Bool {
        if !chunked {
            if !pending.isEmpty {
                let take = remainingBody.map { min($0, pending.count) } ?? pending.count
                emit(.data(Data(pending[0..<take]), at: now))
                pending.removeFirst(take)
                remainingBody = remainingBody.map { $0 - take }
            }
            finished = remainingBody == 0
            return finished
        }
        var output = Data()
        defer { if !output.isEmpty { emit(.data(output, at: now)) } }
        while true {
            if let left = chunkLeft {
                if left > 0 {
                    let take = min(left, pending.count)
                    if take == 0 { return false }
                    output.append(contentsOf: pending[0..<take])
                    pending.removeFirst(take)
                    chunkLeft = left - take
                    if chunkLeft! > 0 { return false }
                }
                guard pending.count >= 2 else { return false }
                pending.removeFirst(2)  // CRLF after the chunk data
                chunkLeft = nil
            }
            guard let lineEnd = Self.find([13, 10], in: pending) else {
                if pending.count > 4096 { throw BackendError.malformedResponse(url: label, detail: "a chunk size line over 4 KiB") }
                return false
            }
            let sizeText = String(decoding: pending[0..<lineEnd], as: UTF8.self).split(separator: ";").first ?? ""
            guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16) else {
                throw BackendError.malformedResponse(url: label, detail: "a chunk size that is not hexadecimal (\(sizeText.utf8.count) bytes)")
            }
            pending.removeFirst(lineEnd + 2)
            if size == 0 {
                finished = true
                return true
            }
            chunkLeft = size
        }
    }

    /// At end of stream: complete only when the body was read to its declared end.
    mutating func finish(emit: (TransportEvent) -> Void, at now: ContinuousClock.Instant) throws {
        guard headersDone else { throw BackendError.streamCutOff(url: label, detail: "connection closed before the response headers") }
        if chunked && !finished { throw BackendError.streamCutOff(url: label, detail: "connection closed inside a chunked body") }
        if let remaining = remainingBody, remaining > 0 { throw BackendError.streamCutOff(url: label, detail: "connection closed \(remaining) bytes before the end of the body") }
    }

    static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        outer: for i in 0...(haystack.count - needle.count) {
            for j in 0..<needle.count where haystack[i + j] != needle[j] { continue outer }
            return i
        }
        return nil
    }
}
