import Foundation
import Corpus
import Backend

/// Translates text between two languages: the reply model itself (`LlamaTranslator`), Apertium's APy server
/// (`ApertiumTranslator`) or a command speaking JSON lines (`ExecTranslator`, e.g. a wrapper of Apple's
/// Translation framework).
package protocol Translating: Sendable {
    func translate(_ text: String, from source: LanguageCode, to target: LanguageCode) async throws -> TranslationResult
    /// What translates, for the environment and the reports.
    var engine: TranslationEngine { get }
}

/// A translation and what it cost.
package struct TranslationResult: Sendable {
    package var text: String
    /// The model request when the reply model translated; nil for an engine that is not a language model (its
    /// tokens are not the model's, so the route's token counts leave it out).
    package var completion: Completion?
    /// The request on the client clock.
    package var ms: Double
    /// Until the first text: the whole request for an engine that does not stream.
    package var ttftMs: Double?

    package init(text: String, completion: Completion) {
        self.text = text
        self.completion = completion
        ms = completion.client.wallMs
        ttftMs = completion.client.timeToFirstTokenMs
    }

    package init(text: String, ms: Double) {
        self.text = text
        completion = nil
        self.ms = ms
        ttftMs = ms
    }
}

/// The engine a run translates with, as the environment records it.
package struct TranslationEngine: Sendable, Hashable, Codable {
    /// `llm`, `apertium` or `exec`.
    package var kind: String
    /// `llm`, `apertium` (started by LangBench), `apertium:<url>`, `exec:<command>` (credentials redacted).
    package var name: String
    /// The engine's version where it says one (APy's).
    package var version: String?
    /// The pairs the engine had installed when the run began (`es-en`, …); nil where it does not list them.
    package var pairs: [String]?

    package init(kind: String, name: String, version: String? = nil) {
        self.kind = kind
        self.name = name
        self.version = version
    }

    package static let llm = TranslationEngine(kind: "llm", name: "llm")
}

/// Translation through a llama.cpp completion with the profile's few-shot template.
package struct LlamaTranslator: Translating {
    package var backend: any TextCompleting
    package var prompts: PromptBuilder
    package var sampling: ModelProfile.Sampling
    package var engine: TranslationEngine { .llm }

    package init(backend: any TextCompleting, prompts: PromptBuilder, sampling: ModelProfile.Sampling) {
        self.backend = backend
        self.prompts = prompts
        self.sampling = sampling
    }

    package func translate(_ text: String, from source: LanguageCode, to target: LanguageCode) async throws -> TranslationResult {
        let completion = try await backend.complete(sampling.request(prompts.translation(text, from: source, to: target)))
        return TranslationResult(text: completion.content.trimmingCharacters(in: .whitespacesAndNewlines), completion: completion)
    }
}

extension ModelProfile.Sampling {
    /// A request with every setting spelled out.
    package func request(_ prompt: String, seed: Int? = nil, nPredict: Int? = nil) -> CompletionRequest {
        CompletionRequest(prompt: prompt, maxTokens: nPredict ?? self.nPredict, temperature: temperature, seed: seed ?? self.seed,
                          stop: stop, cachePrompt: cachePrompt, topK: topK, topP: topP, minP: minP, ignoreEOS: ignoreEOS)
    }
}
