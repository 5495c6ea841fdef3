import Support
import Foundation

/// Measures prompt-processing and generation speed through the harness's client, compares them with
/// the server's own timings and with `llama-bench` on the same model and threads, in one run.
package struct BackendBenchmark: Sendable {
    package var paths: BackendPaths
    package var settings: BackendBenchSettings
    /// Where the server writes its log.
    package var runDirectory: URL

    package init(paths: BackendPaths, settings: BackendBenchSettings = BackendBenchSettings(), runDirectory: URL) {
        self.paths = paths
        self.settings = settings
        self.runDirectory = runDirectory
    }

    /// Runs `repetitions` rounds of [prompt-processing request, the generation request three ways,
    /// `llama-bench -r 1`],
    /// so a burst of machine load hits all three alike; figures are medians over the rounds. The
    /// server idles (no CPU) while llama-bench runs. `progress` receives short step descriptions.
    package func run(progress: @Sendable (String) -> Void = { _ in }) async throws -> BackendBenchReport {
        let context = max(2048, settings.promptTokens + settings.generatedTokens + 64)
        let configuration = ServerConfiguration(binary: paths.server, model: paths.model, contextSize: context,
                                                threads: settings.threads, parallelSlots: 1, swaFull: true)
        progress("starting llama-server (\(settings.threads) threads, context \(context))")
        let server = try await LlamaServer.launch(configuration, runDirectory: runDirectory)
        defer { server.stop() }
        let client = server.client(requestTimeout: 300)
        let openAI = OpenAIClient(endpoint: OpenAIEndpoint(baseURL: server.baseURL.appendingPathComponent("v1")), requestTimeout: 300)
        let session = LlamaClient(baseURL: server.baseURL, requestTimeout: 300, transport: .urlSession)
        let props = try await client.props()
        let prompt = try await promptOfExactly(settings.promptTokens, client: client)

        let processing = CompletionRequest(prompt: prompt, maxTokens: 1, temperature: 0, seed: 1, stop: [],
                                           cachePrompt: false, ignoreEOS: true)
        let generation = CompletionRequest(prompt: "The", maxTokens: settings.generatedTokens, temperature: 0,
                                           seed: 1, stop: [], cachePrompt: true, ignoreEOS: true)
        // One generation request, three ways to the server: native over the socket client, the OpenAI
        // path over the socket client, native over URLSession.
        let ways: [(BenchRequest.Kind, any TextCompleting)] = [(.generation, client), (.generationOpenAI, openAI),
                                                               (.generationURLSession, session)]
        progress("warming up")
        let promptTokens = try await client.complete(processing).requireServerTimings(url: "/completion").promptN
        for (_, way) in ways { _ = try await way.complete(generation) }

        var requests: [BenchRequest] = []
        var reference: [LlamaBenchResult] = []
        for round in 1...settings.repetitions {
            progress("round \(round)/\(settings.repetitions): server, then llama-bench -p \(promptTokens) -n \(settings.generatedTokens)")
            requests.append(try await Self.measure(.promptProcessing, round) { try await client.complete(processing) })
            // The ways take turns going first, so a drift of the machine within a round falls on each alike.
            for offset in ways.indices {
                let (kind, way) = ways[(round - 1 + offset) % ways.count]
                requests.append(try await Self.measure(kind, round) { try await way.complete(generation) })
            }
            reference += try await LlamaBench.run(binary: paths.bench, model: paths.model, threads: settings.threads,
                                                  promptTokens: promptTokens, generatedTokens: settings.generatedTokens,
                                                  repetitions: 1)
        }
        let llamaBench = LlamaBench.merge(reference)
        let generationReference = llamaBench.first { $0.generatedTokens > 0 }
        return BackendBenchReport(
            settings: settings, promptTokens: promptTokens, model: paths.model, serverBuild: props.buildInfo,
            llamaBenchBuild: llamaBench.first?.build ?? "unknown",
            promptProcessing: Self.compare(requests, .promptProcessing, llamaBench.first { $0.promptTokens > 0 }),
            generation: Self.compare(requests, .generation, generationReference),
            generationOpenAI: Self.compare(requests, .generationOpenAI, generationReference),
            generationURLSession: Self.compare(requests, .generationURLSession, generationReference),
            overheadMs: requests.map(\.overheadMs).median ?? 0,
            clients: ways.map { ClientCost(kind: $0.0, requests: requests) },
            requests: requests, llamaBench: llamaBench)
    }

    /// A deterministic English text cut to exactly `count` tokens (the server adds BOS on top).
    func promptOfExactly(_ count: Int, client: LlamaClient) async throws -> String {
        let sentence = "The quick brown fox jumps over the lazy dog while the farmer counts his sheep in the morning light. "
        let tokensPerSentence = max(1, try await client.tokenize(sentence).count)
        let text = String(repeating: sentence, count: count / tokensPerSentence + 2)
        let tokens = try await client.tokenize(text)
        // One token fewer: the server prepends BOS, and prompt_n counts it.
        return try await client.detokenize(Array(tokens.prefix(max(1, count - 1))))
    }

    /// Runs one request and measures it; the process's CPU time across it is the client's, since
    /// nothing else in the harness works while a benchmark request is in flight.
    static func measure(_ kind: BenchRequest.Kind, _ repetition: Int,
                        _ request: () async throws -> Completion) async throws -> BenchRequest {
        let cpuBefore = SystemCall.cpuSeconds(children: false)
        let completion = try await request()
        let cpuAfter = SystemCall.cpuSeconds(children: false)
        let cpuMs = cpuBefore.flatMap { before in cpuAfter.map { ($0 - before) * 1000 } }
        return try measure(kind, repetition, completion, clientCPUMs: cpuMs)
    }

    static func measure(_ kind: BenchRequest.Kind, _ repetition: Int, _ completion: Completion,
                        clientCPUMs: Double? = nil) throws -> BenchRequest {
        let client: Double?
        let server: Double
        let timings = try completion.requireServerTimings(url: "/completion")
        switch kind {
        case .promptProcessing:
            // The first token event marks the end of prompt processing as the client sees it.
            client = completion.client.firstTokenEventMs.map { Double(timings.promptN) / $0 * 1000 }
            server = timings.promptPerSecond
        case .generation, .generationOpenAI, .generationURLSession:
            client = completion.clientPredictedPerSecond
            server = timings.predictedPerSecond
        }
        guard let client else {
            throw BackendError.malformedResponse(url: "/completion", detail: "no token events to time (\(kind.rawValue))")
        }
        return BenchRequest(kind: kind, repetition: repetition, clientPerSecond: client, serverPerSecond: server,
                            overheadMs: completion.overheadMs ?? 0, clientCPUMs: clientCPUMs, client: completion.client,
                            server: timings)
    }

    static func compare(_ requests: [BenchRequest], _ kind: BenchRequest.Kind,
                        _ reference: LlamaBenchResult?) -> SpeedComparison {
        let chosen = requests.filter { $0.kind == kind }
        return SpeedComparison(clientPerSecond: chosen.map(\.clientPerSecond).median ?? 0,
                               serverPerSecond: chosen.map(\.serverPerSecond).median ?? 0,
                               llamaBenchPerSecond: reference?.medianPerSecond ?? 0)
    }
}
