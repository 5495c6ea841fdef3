/// How `bench backend` measures: prompt and generation lengths, repetitions, threads.
public struct BackendBenchSettings: Sendable, Equatable, Codable {
    /// Prompt length for prompt processing (cut to exactly this many tokens).
    public var promptTokens: Int
    /// Tokens generated per generation request (end-of-sequence ignored).
    public var generatedTokens: Int
    /// Measured repetitions of each kind, after one warm-up request; figures are medians.
    public var repetitions: Int
    public var threads: Int

    public init(promptTokens: Int = 256, generatedTokens: Int = 128, repetitions: Int = 5, threads: Int = 2) {
        self.promptTokens = promptTokens
        self.generatedTokens = generatedTokens
        self.repetitions = repetitions
        self.threads = threads
    }
}
