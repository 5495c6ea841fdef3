import Support
import Foundation
import Backend
import Synchronization

/// Applies a `CachePolicy` to every request a pipeline makes, whatever the profile's `cache_prompt`:
/// `cold` turns prompt reuse off; `warm-prefix` first primes the slot with the prompt's instruction
/// prefix (a one-token request) so each timed request finds exactly that prefix cached, never the
/// previous route's whole prompt. Priming time is reported to `UntimedWork.current` so the pipeline
/// leaves it out of every timing.
package struct CacheControlledBackend: TextCompleting {
    package var base: any TextCompleting
    package var policy: CachePolicy

    package init(_ base: any TextCompleting, policy: CachePolicy) {
        self.base = base
        self.policy = policy
    }

    package func complete(_ request: CompletionRequest) async throws -> Completion {
        var timed = request
        timed.cachePrompt = policy.cachePrompt
        if policy == .warmPrefix, let prefix = Self.instructionPrefix(request.prompt) {
            var primer = timed
            primer.prompt = prefix
            primer.maxTokens = 1
            let clock = ContinuousClock(), start = clock.now
            _ = try await base.complete(primer)
            UntimedWork.current?.add((clock.now - start).milliseconds)
        }
        return try await base.complete(timed)
    }

    /// The prompt up to and including its last blank line: the instructions and few-shot examples
    /// shared by every item of a stage and language. Nil when the prompt has no blank line.
    static func instructionPrefix(_ prompt: String) -> String? {
        guard let range = prompt.range(of: "\n\n", options: .backwards) else { return nil }
        return String(prompt[..<range.upperBound])
    }
}

/// Time spent inside a route on work that is not part of what is measured (cache priming).
/// Bound per route with `UntimedWork.$current.withValue` so concurrent items never share one.
package final class UntimedWork: Sendable {
    @TaskLocal package static var current: UntimedWork?
    private let total = Mutex(0.0)

    package init() {}

    package func add(_ ms: Double) {
        total.withLock { $0 += ms }
    }

    package var milliseconds: Double {
        total.withLock { $0 }
    }
}
