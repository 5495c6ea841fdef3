@testable import Support
import Foundation
import Generation
import GenerationTestSupport
import Backend
import TestSupport
import Testing

/// A server that echoes the prompt in its error body must not put the person's text
/// into diagnostics or records. A fake backend, because no real llama-server echoes prompts on demand.
struct ServerErrorPrivacyTests {
    struct EchoingErrorBackend: TextCompleting {
        var code: Int
        func complete(_ request: CompletionRequest) async throws -> Completion {
            throw BackendError.httpStatus(code: code, message: "invalid_request_error: cannot process \(request.prompt)", url: "http://127.0.0.1:1/completion")
        }
    }

    @Test(arguments: [400, 500])
    func serverErrorBodiesStayOutOfDiagnosticsAndRecords(code: Int) async throws {
        let pipeline = try PipelineFixture.pipeline(backend: EchoingErrorBackend(code: code), detector: FixedDetector(lang: "en"))
        let secret = "my private diary entry about Anna"
        let output = try await PipelineFixture.reply(pipeline, PipelineFixture.item("p-1", "en", secret), .direct)
        #expect(output.record.fallbackReason == .generationError)
        #expect(output.record.errorMessage == "HTTP \(code) (invalid_request_error) from http://127.0.0.1:1/completion")
        let encoded = try JSONOutput.encode(output.events) + (try JSONOutput.encode(output.record))
        #expect(!encoded.contains("diary"), "the prompt leaked: \(encoded.prefix(300))")
    }
}
