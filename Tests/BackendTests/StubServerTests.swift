import Foundation
import Testing
import TestSupport
@testable import Backend

/// Faults the real server cannot be made to produce on demand, from a loopback stub.
@Suite struct StubServerTests {
    static let token = "data: {\"content\":\" Paris\",\"stop\":false,\"tokens_predicted\":1,\"tokens_evaluated\":5}\n\n"
    let request = CompletionRequest(prompt: "The capital of France is", maxTokens: 4)

    @Test func malformedEventIsTyped() async throws {
        let stub = try LoopbackStub(pieces: [LoopbackStub.head(status: "200 OK"), Self.token, "data: {not json\n\n"])
        defer { stub.stop() }
        let error = await backendError { _ = try await LlamaClient(baseURL: stub.url).complete(request) }
        guard case .malformedResponse(_, let detail) = error else {
            Issue.record("expected malformedResponse, got \(String(describing: error))")
            return
        }
        #expect(detail == "an event that is not completion JSON (9 bytes)")  // its size, never its text
    }

    @Test func streamEndingBeforeTheFinalEventIsCutOff() async throws {
        let stub = try LoopbackStub(pieces: [LoopbackStub.head(status: "200 OK"), Self.token, "data: {\"conte"])
        defer { stub.stop() }
        let error = await backendError { _ = try await LlamaClient(baseURL: stub.url).complete(request) }
        #expect(error == .streamCutOff(url: "\(stub.url.absoluteString)/completion", detail: "stream ended inside an event"))
    }

    @Test func finalEventWithoutTimingsIsMalformed() async throws {
        let stub = try LoopbackStub(pieces: [LoopbackStub.head(status: "200 OK"), "data: {\"content\":\"\",\"stop\":true}\n\n"])
        defer { stub.stop() }
        let error = await backendError { _ = try await LlamaClient(baseURL: stub.url).complete(request) }
        guard case .malformedResponse = error else {
            Issue.record("expected malformedResponse, got \(String(describing: error))")
            return
        }
    }

    @Test func loadingServerAnswers503() async throws {
        let body = "{\"error\":{\"code\":503,\"message\":\"Loading model\",\"type\":\"unavailable_error\"}}"
        let stub = try LoopbackStub(pieces: [LoopbackStub.head(status: "503 Service Unavailable", contentType: "application/json"), body])
        defer { stub.stop() }
        let error = await backendError { try await LlamaClient(baseURL: stub.url).health() }
        #expect(error == .serverLoading(url: "\(stub.url.absoluteString)/health"))
    }

    @Test func errorEventInsideTheStreamCarriesTheServerMessage() async throws {
        let failure = "data: {\"error\":{\"code\":500,\"message\":\"slot crashed\",\"type\":\"server_error\"}}\n\n"
        let stub = try LoopbackStub(pieces: [LoopbackStub.head(status: "200 OK"), Self.token, failure])
        defer { stub.stop() }
        let error = await backendError { _ = try await LlamaClient(baseURL: stub.url).complete(request) }
        // The stream began with HTTP 200: the event's own code, not a status the server never sent.
        #expect(error == .streamError(code: 500, message: "server_error: slot crashed",
                                      url: "\(stub.url.absoluteString)/completion"))
    }

    @Test func silentServerTimesOutOnTime() async throws {
        let stub = try LoopbackStub(pieces: [LoopbackStub.head(status: "200 OK"), Self.token], holdOpen: 30)
        defer { stub.stop() }
        let start = ContinuousClock.now
        let error = await backendError {
            _ = try await LlamaClient(baseURL: stub.url, requestTimeout: 0.3).complete(request)
        }
        #expect(error == .timeout(url: "\(stub.url.absoluteString)/completion", seconds: 0.3))
        #expect(ContinuousClock.now - start < .seconds(15))  // far below holdOpen: the deadline fired, not the close; slack for a loaded machine
    }
}
