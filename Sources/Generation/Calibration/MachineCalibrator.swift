import LlamaBackend
import RunProvenance

/// Measures a `MachineCalibration` through the run's own server: the same fixed request several times,
/// from an empty prompt cache, generating a fixed number of tokens, timed by the server.
public struct MachineCalibrator: Sendable {
    public var backend: any TextCompleting
    public var threads: Int?
    /// Requests per phase (start, end); one more, unrecorded, warms the server before the first.
    public var requestsPerPhase: Int
    /// Test only: slows the start samples as recorded (`LANGBENCH_TEST_CALIBRATION_LOAD`).
    public var injectedLoad: InjectedCalibrationLoad?

    public init(backend: any TextCompleting, threads: Int?, requestsPerPhase: Int = 3) {
        self.backend = backend
        self.threads = threads
        self.requestsPerPhase = max(1, requestsPerPhase)
    }

    /// Neutral English prose of about 60 tokens: the same bytes for every run of calibration version 1.
    static let prompt = """
    The museum opens at nine in the morning and closes at six in the evening. Visitors can walk through \
    three floors of paintings, old maps and small wooden boats, then rest in the garden behind the main \
    hall, where a quiet café serves tea, bread and soup. The guide said that
    """

    /// Version 1 of the fixed request: cold prompt (`cache_prompt` off), greedy, exactly 16 tokens.
    static let request = CompletionRequest(prompt: prompt, maxTokens: 16, temperature: 0, seed: 42, stop: [], cachePrompt: false,
                                           topK: 1, topP: 1, minP: 0, ignoreEOS: true)

    /// `requestsPerPhase` samples labelled `phase`; `warm` sends one unrecorded request first.
    public func measure(phase: String, warm: Bool = false) async throws -> [MachineCalibration.Sample] {
        if warm { _ = try await backend.complete(Self.request) }
        var samples: [MachineCalibration.Sample] = []
        for _ in 0..<requestsPerPhase {
            let server = try await backend.complete(Self.request).requireServerTimings(url: "calibration request")
            let sample = MachineCalibration.Sample(phase: phase, promptTokens: server.promptN, promptMs: server.promptMs,
                                                   generatedTokens: server.predictedN, generationMs: server.predictedMs)
            samples.append(injectedLoad?.apply(sample) ?? sample)
        }
        return samples
    }
}
