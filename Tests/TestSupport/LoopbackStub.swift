import Support
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A one-trick HTTP server on 127.0.0.1 for faults the real llama-server cannot be made to
/// produce on demand (a malformed stream, a stream that stops mid-event, a 503).
///
/// For each connection it reads the request, writes the response in the given pieces (pausing
/// `pause` between them) and then `padding` bytes of `x` made as they are sent (a line of any length
/// without holding it), then either closes or holds the connection open for `holdOpen` seconds.
/// The response is `pieces`, or for a path in `routes` the next of that path's responses (its last
/// one repeating), so a test can script a server that answers differently request by request.
public final class LoopbackStub: @unchecked Sendable {
    public let port: Int
    private let listener: Int32
    private let pieces: [Data]
    private let routes: Mutex<[String: [[Data]]]>
    private let pause: Double
    private let holdOpen: Double
    private let padding: Int

    public var url: URL { URL(string: "http://127.0.0.1:\(port)")! }

    public init(pieces: [String], routes: [String: [[String]]] = [:], pause: Double = 0, holdOpen: Double = 0, padding: Int = 0) throws {
        self.padding = padding
        self.pieces = pieces.map { Data($0.utf8) }
        self.routes = Mutex(routes.mapValues { $0.map { $0.map { Data($0.utf8) } } })
        self.pause = pause
        self.holdOpen = holdOpen
        let fd = SystemCall.streamSocket(family: AF_INET)
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 && listen(fd, 8) == 0
            }
        }
        guard ok else {
            close(fd)
            throw POSIXError(.EADDRINUSE)
        }
        listener = fd
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread.detachNewThread { [self] in serve() }
    }

    /// A complete HTTP/1.1 response head for a body streamed until the connection closes.
    public static func head(status: String, contentType: String = "text/event-stream") -> String {
        "HTTP/1.1 \(status)\r\nContent-Type: \(contentType)\r\nConnection: close\r\n\r\n"
    }

    /// Wakes the serving thread's `accept`, which then closes the listener itself: closing it here
    /// freed its descriptor number while that thread could still accept on it, so a stub made next
    /// (in a test running beside this one) had its connections answered by this stub's pieces.
    public func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
    }

    private func serve() {
        while true {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else {
                if errno == EINTR { continue }
                close(listener)
                return
            }
            SystemCall.noSignalOnClosedPeer(connection)
            let path = readRequest(connection)
            for piece in response(for: path) {
                _ = SystemCall.send(connection, Array(piece)[...])
                if pause > 0 { usleep(useconds_t(pause * 1_000_000)) }
            }
            let block = [UInt8](repeating: UInt8(ascii: "x"), count: 65_536)
            var left = padding
            while left > 0 {
                let sent = SystemCall.send(connection, block[..<min(left, block.count)])
                if sent <= 0 { break }  // the client hung up
                left -= sent
            }
            if holdOpen > 0 { usleep(useconds_t(holdOpen * 1_000_000)) }
            close(connection)
        }
    }

    /// The next scripted response for `path`, or `pieces`.
    private func response(for path: String) -> [Data] {
        routes.withLock { routes in
            guard var queue = routes[path], let next = queue.first else { return pieces }
            if queue.count > 1 { queue.removeFirst() }
            routes[path] = queue
            return next
        }
    }

    /// Reads the head and a `Content-Length` body, so closing never resets an unread request; returns
    /// the request's path without its query ("" when the request never arrived whole).
    @discardableResult
    private func readRequest(_ connection: Int32) -> String {
        var received = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(connection, &buffer, buffer.count, 0)
            guard count > 0 else { return "" }
            received += buffer[0..<count]
            let text = String(decoding: received, as: UTF8.self)
            guard let headEnd = text.range(of: "\r\n\r\n") else { continue }
            let head = text[..<headEnd.lowerBound].lowercased()
            let length = head.split(separator: "\r\n")
                .first { $0.hasPrefix("content-length:") }
                .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
            if text.utf8.count - text[..<headEnd.upperBound].utf8.count >= length {
                let requestLine = text[..<headEnd.lowerBound].split(separator: "\r\n").first ?? ""
                let parts = requestLine.split(separator: " ")
                // Routed by path alone: a query (a credential in the URL, say) does not make another route.
                return parts.count > 1 ? String(parts[1].split(separator: "?", omittingEmptySubsequences: false)[0]) : ""
            }
        }
    }
}
