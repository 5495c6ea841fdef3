import Foundation
@testable import Generation
@testable import LangBenchCLI
import TestSupport
import Testing

/// `generate` against OpenAI-compatible answers llama-server cannot be made to give on demand (an HTML
/// page where the model list should be, a 429 on every completion), from a loopback stub.
struct OpenAIStubCommandTests {
    static let json = "application/json"
    static let models = #"{"object":"list","data":[{"id":"stub-model","object":"model"}]}"#
    static let oneToken = "data: {\"choices\":[{\"text\":\"Hi\",\"index\":0,\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n"
    static let limited = [LoopbackStub.head(status: "429 Too Many Requests", contentType: json),
                          #"{"error":{"code":429,"message":"slow down","type":"rate_limit_error"}}"#]

    /// A web server's page where `/v1/models` should be: exit 69 naming the URL and the endpoint,
    /// describing the body by its kind, never quoting it.
    @Test func aModelListThatIsAnHTMLPageExits69NamingTheEndpoint() async throws {
        let stub = try LoopbackStub(pieces: [LoopbackStub.head(status: "200 OK", contentType: "text/html"),
                                             "<!doctype html><html><body>Welcome to nginx</body></html>"])
        defer { stub.stop() }
        let directory = try Fixture.temporaryDirectory()
        let url = "\(stub.url.absoluteString)/v1"
        let result = await runCommand(["generate", "--corpus", try CommandFixtures.chatCorpus(in: directory), "--profile", CommandFixtures.profile,
                                       "--server-url", url, "--out", directory.appendingPathComponent("gen").path, "--quiet"])
        #expect(result.status == .unavailable)
        #expect(result.stderr.hasPrefix("error: \(url)/models does not serve the OpenAI-compatible /v1/models (HTML, not JSON)"), "\(result.stderr)")
        #expect(!result.stderr.contains("nginx"))
    }

    /// The model list and the one-token check answer, then every completion is rate limited through
    /// every retry: the run completes, and each item's reply is the fallback `rate-limited`.
    @Test func completionsRateLimitedThroughEveryRetryAreRecordedAsRateLimited() async throws {
        let stub = try LoopbackStub(pieces: Self.limited, routes: [
            "/v1/models": [[LoopbackStub.head(status: "200 OK", contentType: Self.json), Self.models]],
            "/v1/completions": [[LoopbackStub.head(status: "200 OK"), Self.oneToken], Self.limited],
        ])
        defer { stub.stop() }
        let directory = try Fixture.temporaryDirectory()
        let profile = try CommandFixtures.profile(backend: ["rate_limit_retries": 1], in: directory)
        let out = directory.appendingPathComponent("gen").path
        let result = await runCommand(["generate", "--corpus", try CommandFixtures.chatCorpus(in: directory), "--profile", profile, "--route", "direct",
                                       "--warmup", "0", "--server-url", "\(stub.url.absoluteString)/v1", "--out", out, "--quiet"])
        #expect(result.status == .success, "\(result.stderr)")
        let report = try GenerationOutput.read(out)
        #expect(report.records.count == 2)
        #expect(report.records.allSatisfy { $0.fallbackReason == .rateLimited }, "\(report.records.map(\.fallbackReason))")
        #expect(try String(contentsOfFile: out + "/generation-items.csv", encoding: .utf8).contains("rate-limited"))
    }
}
