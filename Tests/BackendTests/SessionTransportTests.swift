import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import TestSupport
@testable import Backend

/// The URLSession path (used for https) maps its failures to the same typed errors as the socket path.
@Suite struct SessionTransportTests {
    func drain(_ url: URL, deadline: Double = 5) async -> BackendError? {
        await backendError {
            for try await _ in HTTPTransport.shared.stream(URLRequest(url: url), deadline: deadline) {}
        }
    }

    @Test func refusedConnection() async throws {
        let port = try FreePort.find()
        let url = URL(string: "http://127.0.0.1:\(port)/health")!
        #expect(await drain(url) == .connectionRefused(url: url.absoluteString))
    }

    @Test func bodyCutAfterTheHeaders() async throws {
        let head = "HTTP/1.1 200 OK\r\nContent-Length: 100\r\nConnection: close\r\n\r\n"
        let stub = try LoopbackStub(pieces: [head, "only a part"])
        defer { stub.stop() }
        let url = stub.url.appendingPathComponent("completion")
        guard case .streamCutOff = await drain(url) else {
            Issue.record("expected streamCutOff")
            return
        }
    }

    /// The line limit holds on this path too: the request fails at it instead of queueing the line.
    @Test func aHugeLineIsRefused() async throws {
        let stub = try LoopbackStub(pieces: [LoopbackStub.head(status: "200 OK")], padding: 32 << 20)
        defer { stub.stop() }
        let url = stub.url.appendingPathComponent("completion")
        #expect(await drain(url, deadline: 60) == .responseTooLarge(url: url.absoluteString, part: "a response line", limit: ResponseLimits.maxLineBytes))
    }

    @Test func deadline() async throws {
        let stub = try LoopbackStub(pieces: [LoopbackStub.head(status: "200 OK")], holdOpen: 5)
        defer { stub.stop() }
        let url = stub.url.appendingPathComponent("completion")
        #expect(await drain(url, deadline: 0.3) == .timeout(url: url.absoluteString, seconds: 0.3))
    }
}
