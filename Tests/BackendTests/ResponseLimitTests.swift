import Foundation
import Testing
import TestSupport
@testable import Backend

/// What an attached server sends back that is not a llama-server's event stream: an HTML page, an
/// endless line. The real llama-server cannot be made to send either on demand, so a loopback stub
/// (`LoopbackStub`) stands in for the wrong server or proxy behind `--server-url`.
@Suite struct ResponseLimitTests {
    let request = CompletionRequest(prompt: "The capital of France is", maxTokens: 4)
    static let page = "<!DOCTYPE html>\n<html><body><h1>Welcome to nginx!</h1></body></html>\n"

    /// It used to be recorded as "stream cut off"; now it says what came back, by kind and size only.
    @Test(arguments: [
        ("200 OK", "text/html; charset=utf-8", page, "answered with an HTML page (text/html, 69 bytes) instead of an event stream"),
        ("200 OK", "application/json", #"{"content": "hi"}"#, "answered with a JSON document (application/json, 17 bytes) instead of an event stream"),
        ("200 OK", "text/event-stream", page, "answered with an HTML page (text/event-stream, 69 bytes) instead of an event stream"),
    ])
    func aBodyThatIsNoEventStreamIsNamed(status: String, contentType: String, body: String, message: String) async throws {
        let stub = try LoopbackStub(pieces: [LoopbackStub.head(status: status, contentType: contentType), body])
        defer { stub.stop() }
        let error = await backendError { _ = try await LlamaClient(baseURL: stub.url).complete(request) }
        let url = "\(stub.url.absoluteString)/completion"
        #expect(error?.description == "\(url) \(message); check that --server-url is a llama-server")
    }

    /// An error page's text stays out of the message: it may quote the prompt.
    @Test func anHTMLErrorPageIsDescribedNotQuoted() async throws {
        let stub = try LoopbackStub(pieces: [LoopbackStub.head(status: "404 Not Found", contentType: "text/html"), Self.page])
        defer { stub.stop() }
        let error = await backendError { _ = try await LlamaClient(baseURL: stub.url).complete(request) }
        #expect(error == .httpStatus(code: 404, message: "an HTML page (text/html, 69 bytes)", url: "\(stub.url.absoluteString)/completion"))
    }

    /// A 128 MB line used to be held whole (520 MB resident); the request now fails at the limit and
    /// memory stays flat. Resident memory is sampled while the request runs (other tests in this
    /// process add noise, hence the wide bound: the old code grew by hundreds of MB).
    @Test func aHugeLineFailsTheRequestAndMemoryStaysFlat() async throws {
        let stub = try LoopbackStub(pieces: [LoopbackStub.head(status: "200 OK"), "data: {\"content\":\""], padding: 128 << 20)
        defer { stub.stop() }
        let baseline = try #require(Self.residentBytes())
        let peak = Peak()
        let sampler = Thread { while !peak.done { peak.record(Self.residentBytes() ?? 0); usleep(2_000) } }
        sampler.start()
        let error = await backendError { _ = try await LlamaClient(baseURL: stub.url, requestTimeout: 60).complete(request) }
        peak.finish()
        #expect(error == .responseTooLarge(url: "\(stub.url.absoluteString)/completion", part: "a response line", limit: ResponseLimits.maxLineBytes))
        #expect(error?.description.hasPrefix("a response line from \(stub.url.absoluteString)/completion exceeded 4194304 bytes") == true)
        let growth = peak.value - baseline
        #expect(growth < 64 << 20, "resident memory grew by \(growth >> 20) MiB")
    }

    /// With a limit of 8 bytes: a line may span chunks, and a newline starts the count again.
    @Test(arguments: [
        (["12345678"], true),
        (["123456789"], false),
        (["12345", "678\n12345678"], true),
        (["12345", "6789\n"], false),
        (["1234\n1234\n", "5678"], true),
    ])
    func theLineGuardCountsAcrossChunks(chunks: [String], admitted: Bool) {
        var guardian = ResponseLimits.LineGuard(limit: 8)
        #expect(chunks.allSatisfy { guardian.admit(Array($0.utf8)) } == admitted)
    }

    static func residentBytes() -> Int? {
        guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8),
              let pages = statm.split(separator: " ").dropFirst().first.flatMap({ Int($0) }) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// The highest sample, written by the sampling thread.
    final class Peak: @unchecked Sendable {
        private let lock = NSLock()
        private var highest = 0
        private var stopped = false
        var done: Bool { lock.withLock { stopped } }
        var value: Int { lock.withLock { highest } }
        func record(_ bytes: Int) { lock.withLock { highest = max(highest, bytes) } }
        func finish() { lock.withLock { stopped = true } }
    }
}
