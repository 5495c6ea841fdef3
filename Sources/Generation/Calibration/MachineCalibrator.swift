import Support
import Backend
import Provenance

/// Measures a `MachineCalibration` through the run's own server: the same fixed request several times, shaped
/// like an item's reply request (a few-shot reply prompt of about an item's length, a reply's number of tokens),
/// from an empty prompt cache, timed by the server and by the client.
package struct MachineCalibrator: Sendable {
    package var backend: any TextCompleting
    package var threads: Int?
    /// Requests per phase (start, end); one more, unrecorded, warms the server before the first.
    package var requestsPerPhase: Int
    /// Test only: slows the start samples as recorded (`LANGBENCH_TEST_CALIBRATION_LOAD`).
    package var injectedLoad: InjectedCalibrationLoad?

    package init(backend: any TextCompleting, threads: Int?, requestsPerPhase: Int = 3) {
        self.backend = backend
        self.threads = threads
        self.requestsPerPhase = max(1, requestsPerPhase)
    }

    /// An English direct-reply prompt as the default profile builds one (about 110 tokens, an item's prompt
    /// length): the same bytes for every run of calibration version 2. Per-token costs measured on a prompt much
    /// shorter than the items' extrapolate, and prompt processing does not scale linearly with length.
    static let prompt = """
    The person's locale is en-GB.
    You MUST respond in English.
    You are a kind companion in a journaling app. Reply with one short, warm sentence.

    User: I finally finished my project today.
    Companion: That's wonderful, you must feel so relieved!

    User: The museum was closed when we arrived, so we walked along the river instead and found a small café \
    with the best soup I have had in years. We stayed there until it was dark.
    Companion:
    """

    /// Version 2 of the fixed request: cold prompt (`cache_prompt` off), greedy, exactly 20 tokens (a reply's length).
    static let request = CompletionRequest(prompt: prompt, maxTokens: 20, temperature: 0, seed: 42, stop: [], cachePrompt: false,
                                           topK: 1, topP: 1, minP: 0, ignoreEOS: true)

    /// `requestsPerPhase` samples labelled `phase`; `warm` sends one unrecorded request first.
    package func measure(phase: String, warm: Bool = false) async throws -> [MachineCalibration.Sample] {
        if warm { _ = try await backend.complete(Self.request) }
        var samples: [MachineCalibration.Sample] = []
        let clock = ContinuousClock()
        for _ in 0..<requestsPerPhase {
            let start = clock.now
            let completion = try await backend.complete(Self.request)
            let clientMs = (clock.now - start).milliseconds
            let server = try completion.requireServerTimings(url: "calibration request")
            var sample = MachineCalibration.Sample(phase: phase, promptTokens: server.promptN, promptMs: server.promptMs,
                                                   generatedTokens: server.predictedN, generationMs: server.predictedMs)
            sample.clientMs = clientMs
            samples.append(injectedLoad?.apply(sample) ?? sample)
        }
        return samples
    }
}
