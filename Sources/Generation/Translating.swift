import Foundation
import Items
import LlamaBackend

/// Translates text between two languages (Apple's Translation framework on a device; here llama.cpp).
public protocol Translating: Sendable {
    func translate(_ text: String, from source: LanguageCode, to target: LanguageCode) async throws -> TranslationResult
}

/// A translation and what it cost.
public struct TranslationResult: Sendable {
    public var text: String
    public var completion: Completion
}

/// Translation through a llama.cpp completion with the profile's few-shot template.
public struct LlamaTranslator: Translating {
    public var backend: any TextCompleting
    public var prompts: PromptBuilder
    public var sampling: ModelProfile.Sampling

    public init(backend: any TextCompleting, prompts: PromptBuilder, sampling: ModelProfile.Sampling) {
        self.backend = backend
        self.prompts = prompts
        self.sampling = sampling
    }

    public func translate(_ text: String, from source: LanguageCode, to target: LanguageCode) async throws -> TranslationResult {
        let completion = try await backend.complete(sampling.request(prompts.translation(text, from: source, to: target)))
        return TranslationResult(text: completion.content.trimmingCharacters(in: .whitespacesAndNewlines), completion: completion)
    }
}

extension ModelProfile.Sampling {
    /// A request with every setting spelled out.
    public func request(_ prompt: String, seed: Int? = nil, nPredict: Int? = nil) -> CompletionRequest {
        CompletionRequest(prompt: prompt, maxTokens: nPredict ?? self.nPredict, temperature: temperature, seed: seed ?? self.seed,
                          stop: stop, cachePrompt: cachePrompt, topK: topK, topP: topP, minP: minP, ignoreEOS: ignoreEOS)
    }
}
