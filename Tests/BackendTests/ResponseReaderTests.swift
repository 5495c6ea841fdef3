import Foundation
import Testing
@testable import Backend

/// The socket client's HTTP/1.1 response parser, fed in every possible split.
struct ResponseReaderTests {
    static let chunked = Array("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n7;ext=1\r\n, world\r\n0\r\n\r\n".utf8)

    func parse(_ bytes: [UInt8], splitAt splits: [Int]) throws -> (status: Int?, body: String, complete: Bool) {
        var reader = ResponseReader(label: "test")
        var status: Int?
        var body = Data()
        var complete = false
        var start = 0
        for end in splits + [bytes.count] where end >= start {
            complete = try reader.feed(bytes[start..<end], at: .now) { event in
                switch event {
                case .response(let code, _, _): status = code
                case .data(let data, _): body.append(data)
                }
            }
            start = end
            if complete { break }
        }
        return (status, String(decoding: body, as: UTF8.self), complete)
    }

    @Test func chunkedBodyInEverySplit() throws {
        for split in 0...Self.chunked.count {
            let result = try parse(Self.chunked, splitAt: [split])
            #expect(result.status == 200 && result.body == "hello, world" && result.complete, "split at \(split)")
        }
    }

    @Test func sizedBody() throws {
        let bytes = Array("HTTP/1.1 400 Bad Request\r\nContent-Length: 11\r\n\r\n{\"error\":1}".utf8)
        let result = try parse(bytes, splitAt: [20, 50])
        #expect(result.status == 400 && result.body == "{\"error\":1}" && result.complete)
    }

    @Test func cutOffChunkedBodyIsAnError() throws {
        var reader = ResponseReader(label: "test")
        _ = try reader.feed(Self.chunked[0..<100], at: .now) { _ in }
        #expect(throws: BackendError.self) { try reader.finish(emit: { _ in }, at: .now) }
    }

    @Test func notHTTPIsMalformed() {
        var reader = ResponseReader(label: "test")
        #expect(throws: BackendError.self) { _ = try reader.feed(Array("SSH-2.0-OpenSSH\r\n\r\n".utf8)[...], at: .now) { _ in } }
    }
}
