import Foundation
import Generation
import GenerationTestSupport
import Backend
import TestSupport
import Testing

/// What `generate` records when an attached server answers with something that is no llama-server
/// reply. A fake backend throws the errors `LlamaClient` gives for them (pinned against a loopback
/// stub in `ResponseLimitTests`), since the real llama-server sends neither on demand.
struct UnusableReplyTests {
    struct FailingBackend: TextCompleting {
        var error: BackendError
        func complete(_ request: CompletionRequest) async throws -> Completion { throw error }
    }

    static let url = "http://127.0.0.1:1/completion"

    @Test(arguments: [
        (BackendError.notAnEventStream(url: url, body: "an HTML page (text/html, 2.3 kB)"),
         "http://127.0.0.1:1/completion answered with an HTML page (text/html, 2.3 kB) instead of an event stream; check that --server-url is a llama-server"),
        (BackendError.responseTooLarge(url: url, part: "a response line", limit: 4_194_304),
         "a response line from http://127.0.0.1:1/completion exceeded 4194304 bytes; check that --server-url is a llama-server"),
    ])
    func theRecordSaysWhatCameBack(error: BackendError, message: String) async throws {
        let pipeline = try PipelineFixture.pipeline(backend: FailingBackend(error: error), detector: FixedDetector(lang: "en"))
        let output = try await PipelineFixture.reply(pipeline, PipelineFixture.item("p-1", "en", "hello there"), .direct)
        #expect(output.record.fallbackReason == .generationError)  // the server answered: not "model-unavailable"
        #expect(output.record.errorMessage == message)
    }
}
