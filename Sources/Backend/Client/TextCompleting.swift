/// Something that completes a plain-text prompt: the seam between generation code and a backend.
package protocol TextCompleting: Sendable {
    /// Completes `request`, with every setting taken from it and the timings of the call.
    func complete(_ request: CompletionRequest) async throws -> Completion
}
