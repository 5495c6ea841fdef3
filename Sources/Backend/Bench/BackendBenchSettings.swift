/// How `bench backend` measures: prompt and generation lengths, repetitions, threads.
package struct BackendBenchSettings: Sendable, Equatable, Codable {
    /// Prompt length for prompt processing (cut to exactly this many tokens).
    package var promptTokens: Int
    /// Tokens generated per generation request (end-of-sequence ignored).
    package var generatedTokens: Int
    /// Measured repetitions of each kind, after one warm-up request; figures are medians.
    package var repetitions: Int
    package var threads: Int

    package init(promptTokens: Int = 256, generatedTokens: Int = 128, repetitions: Int = 5, threads: Int = 2) {
        self.promptTokens = promptTokens
        self.generatedTokens = generatedTokens
        self.repetitions = repetitions
        self.threads = threads
    }
}
