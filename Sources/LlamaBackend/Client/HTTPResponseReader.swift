import Foundation

/// Incremental HTTP/1.1 response parser: status and headers, then a body delimited by
/// `Content-Length`, chunked transfer encoding, or the end of the connection.
struct HTTPResponseReader {
    private enum Body {
        case fixed(remaining: Int)
        case chunked(ChunkState)
        case untilClose
    }

    private enum ChunkState {
        case size(line: [UInt8])
        case data(remaining: Int)
        case dataEnd(line: [UInt8])
        case trailer(line: [UInt8])
    }

    private var head: [UInt8] = []
    private var body: Body?
    private(set) var status: Int?
    private(set) var isComplete = false

    /// Feeds received bytes (an empty slice means the peer closed); returns the events they complete.
    mutating func feed(_ bytes: ArraySlice<UInt8>, at time: ContinuousClock.Instant, url: String) throws -> [TransportEvent] {
        var events: [TransportEvent] = []
        var rest = bytes
        if body == nil {
            head.append(contentsOf: rest)
            guard let end = Self.find([13, 10, 13, 10], in: head) else {
                if head.count > 64 * 1024 { throw BackendError.malformedResponse(url: url, detail: "response head over 64 KiB") }
                return []
            }
            let (code, mode) = try Self.parseHead(head[..<end], url: url)
            status = code
            body = mode
            events.append(.response(status: code, at: time))
            rest = ArraySlice(head[(end + 4)...])
            head = []
        }
        if bytes.isEmpty, case .untilClose = body { isComplete = true }
        var payload: [UInt8] = []
        consume(rest, into: &payload)
        if !payload.isEmpty { events.append(.data(Data(payload), at: time)) }
        return events
    }

    private mutating func consume(_ bytes: ArraySlice<UInt8>, into payload: inout [UInt8]) {
        var index = bytes.startIndex
        while index < bytes.endIndex, !isComplete, let mode = body {
            switch mode {
            case .untilClose:
                payload.append(contentsOf: bytes[index...])
                index = bytes.endIndex
            case .fixed(let remaining):
                let take = min(remaining, bytes.endIndex - index)
                payload.append(contentsOf: bytes[index..<(index + take)])
                index += take
                body = .fixed(remaining: remaining - take)
                if remaining - take == 0 { isComplete = true }
            case .chunked(let state):
                index = consumeChunked(state, bytes, from: index, into: &payload)
            }
        }
        if case .fixed(0) = body { isComplete = true }
    }

    /// One step of the chunked decoder; returns the next unread index.
    private mutating func consumeChunked(_ state: ChunkState, _ bytes: ArraySlice<UInt8>, from index: Int,
                                         into payload: inout [UInt8]) -> Int {
        switch state {
        case .data(let remaining):
            let take = min(remaining, bytes.endIndex - index)
            payload.append(contentsOf: bytes[index..<(index + take)])
            body = .chunked(remaining - take == 0 ? .dataEnd(line: []) : .data(remaining: remaining - take))
            return index + take
        case .size(var line), .dataEnd(var line), .trailer(var line):
            let byte = bytes[index]
            guard byte == 10 else {
                line.append(byte)
                switch state {
                case .size: body = .chunked(.size(line: line))
                case .dataEnd: body = .chunked(.dataEnd(line: line))
                default: body = .chunked(.trailer(line: line))
                }
                return index + 1
            }
            if line.last == 13 { line.removeLast() }
            switch state {
            case .size:
                let digits = String(decoding: line.prefix { $0 != UInt8(ascii: ";") }, as: UTF8.self)
                let size = Int(digits.trimmingCharacters(in: .whitespaces), radix: 16) ?? 0
                body = .chunked(size == 0 ? .trailer(line: []) : .data(remaining: size))
            case .dataEnd:
                body = .chunked(.size(line: []))
            default:
                if line.isEmpty { isComplete = true } else { body = .chunked(.trailer(line: [])) }
            }
            return index + 1
        }
    }

    private static func parseHead(_ head: ArraySlice<UInt8>, url: String) throws -> (Int, Body) {
        let lines = String(decoding: head, as: UTF8.self).components(separatedBy: "\r\n")
        let statusLine = lines.first?.split(separator: " ") ?? []
        guard statusLine.count >= 2, statusLine[0].hasPrefix("HTTP/1."), let code = Int(statusLine[1]) else {
            throw BackendError.malformedResponse(url: url, detail: "not an HTTP/1.x status line: \(lines.first?.prefix(60) ?? "")")
        }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        if headers["transfer-encoding"]?.lowercased().contains("chunked") == true {
            return (code, .chunked(.size(line: [])))
        }
        if let length = headers["content-length"].flatMap({ Int($0) }) {
            return (code, .fixed(remaining: length))
        }
        return (code, .untilClose)
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        return (0...(haystack.count - needle.count)).first { haystack[$0..<($0 + needle.count)].elementsEqual(needle) }
    }
}
