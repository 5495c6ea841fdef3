import Backend
import Testing

/// For tests that must not reach a model: any call is a test failure.
package struct UnusedBackend: TextCompleting {
    package init() {}
    package func complete(_ request: CompletionRequest) async throws -> Completion {
        Issue.record("the backend was called: \(request.prompt.prefix(40))")
        throw BackendError.connectionRefused(url: "unused")
    }
}

/// An adversarial backend for the privacy test: it answers with the prompt's last input line, so
/// message text flows into every later stage, reply and error path. (A fake is right here: no real
/// model can be made to echo on demand.)
package struct EchoBackend: TextCompleting {
    package init() {}
    package func complete(_ request: CompletionRequest) async throws -> Completion {
        let lines = request.prompt.split(separator: "\n")
        let input = lines.dropLast().last.map { String($0.split(separator: ":", maxSplits: 1).last ?? "") } ?? request.prompt
        return .stub(input, for: request)
    }
}

/// Answers every request with one given text, as the model once did (a fake: no real model says a
/// chosen text on demand, and the judging after generation is what is under test).
package struct FixedReplyBackend: TextCompleting {
    package var reply: String
    package init(reply: String) { self.reply = reply }
    package func complete(_ request: CompletionRequest) async throws -> Completion { .stub(reply, for: request) }
}

package extension Completion {
    /// A successful completion of `content` with small fixed counts and timings.
    package static func stub(_ content: String, for request: CompletionRequest) -> Completion {
        Completion(content: content, stopType: .word, stoppingWord: "\n", truncated: false, tokensPredicted: 5, tokensEvaluated: 20,
                   server: ServerTimings(cacheN: 0, promptN: 20, promptMs: 1, promptPerSecond: 20_000, predictedN: 5, predictedMs: 1, predictedPerSecond: 5_000),
                   client: ClientTimings(wallMs: 2, headersMs: 1, timeToFirstTokenMs: 1, firstTokenEventMs: 1, lastTokenEventMs: 2, tokenEvents: 5),
                   settings: EchoedSettings(nPredict: request.maxTokens, temperature: request.temperature, seed: request.seed, topK: request.topK,
                                            topP: request.topP, minP: request.minP, stop: request.stop, ignoreEOS: false))
    }
}
