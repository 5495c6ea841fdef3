/// Why a reply came from the canned bank instead of the model. Every fallback records one.
package enum FallbackReason: String, Sendable, Codable, CaseIterable, Comparable {
    /// The server could not be reached or died.
    case modelUnavailable = "model-unavailable"
    /// Direct generation was forced on a language the profile does not support, and the profile
    /// says the backend refuses such requests (as Apple's Foundation Models does).
    case unsupportedLanguage = "unsupported-language"
    /// A translation pack needed by the pivot is supported but not installed.
    case translationPackMissing = "translation-pack-missing"
    /// No translation pack exists for a pair the pivot needs.
    case translationUnsupported = "translation-unsupported"
    /// Translating the message or the reply failed or produced nothing.
    case translationFailed = "translation-failed"
    /// The server answered with an error (the message is recorded).
    case generationError = "generation-error"
    /// A request exceeded its timeout.
    case timeout
    /// The model produced only whitespace.
    case emptyOutput = "empty-output"
    /// The reply is not in the language the user wrote in (checked with the pipeline's detector; one
    /// that cannot answer stops the run instead).
    case wrongOutputLanguage = "wrong-output-language"
    /// The crisis check flagged the message: the fixed safe reply is given.
    case crisisProtocol = "crisis-protocol"
    /// The server kept answering 429 (rate limited) through every retry.
    case rateLimited = "rate-limited"

    package static func < (lhs: FallbackReason, rhs: FallbackReason) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
