import Foundation
import Testing
@testable import LlamaBackend

@Suite struct HTTPResponseReaderTests {
    static let chunked = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Type: text/event-stream\r\n\r\n"
        + "7\r\ndata: a\r\n3;ext=1\r\n\n\n\n\r\n0\r\n\r\n"
    static let fixed = "HTTP/1.1 503 Service Unavailable\r\nContent-Length: 5\r\n\r\nhello"
    static let untilClose = "HTTP/1.1 200 OK\r\nConnection: close\r\n\r\nabc"

    /// Every way of cutting the response into two reads gives the same status and body.
    @Test(arguments: [(chunked, 200, "data: a\n\n\n", false), (fixed, 503, "hello", false), (untilClose, 200, "abc", true)])
    func decodesAtAnyCut(response: String, status: Int, body: String, needsClose: Bool) throws {
        let bytes = Array(response.utf8)
        // An empty read means the peer closed, so both pieces are non-empty.
        for cut in 1..<bytes.count {
            var reader = HTTPResponseReader()
            var events = try reader.feed(bytes[..<cut], at: .now, url: "u")
            events += try reader.feed(bytes[cut...], at: .now, url: "u")
            #expect(reader.isComplete == !needsClose, "cut \(cut)")
            events += try reader.feed([], at: .now, url: "u")
            #expect(reader.isComplete, "cut \(cut)")
            var received = Data()
            var statuses: [Int] = []
            for event in events {
                switch event {
                case .response(let code, _): statuses.append(code)
                case .data(let data, _): received.append(data)
                }
            }
            #expect(statuses == [status], "cut \(cut)")
            #expect(String(decoding: received, as: UTF8.self) == body, "cut \(cut)")
        }
    }

    @Test func rejectsSomethingThatIsNotHTTP() {
        var reader = HTTPResponseReader()
        #expect(throws: BackendError.self) { try reader.feed(Array("SSH-2.0-OpenSSH\r\n\r\n".utf8)[...], at: .now, url: "u") }
    }
}
