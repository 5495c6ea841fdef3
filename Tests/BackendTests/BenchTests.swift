import Support
import Foundation
import Testing
import TestSupport
@testable import Backend

@Suite struct LlamaBenchParsingTests {
    @Test func parsesLlamaBenchJSON() throws {
        let json = """
            [{"build_commit": "b11434", "build_number": 11434, "n_threads": 2, "n_prompt": 64, "n_gen": 0,
              "avg_ts": 500.0, "samples_ts": [480.5, 520.0, 500.0]},
             {"build_commit": "b11434", "build_number": 11434, "n_threads": 2, "n_prompt": 0, "n_gen": 16,
              "avg_ts": 80.0, "samples_ts": [79.0, 81.0]}]
            """
        let results = try LlamaBench.parse(Data(json.utf8), command: "llama-bench")
        #expect(results == [
            LlamaBenchResult(promptTokens: 64, generatedTokens: 0, threads: 2, samplesPerSecond: [480.5, 520.0, 500.0],
                             medianPerSecond: 500.0, build: "b11434 (11434)"),
            LlamaBenchResult(promptTokens: 0, generatedTokens: 16, threads: 2, samplesPerSecond: [79.0, 81.0],
                             medianPerSecond: 80.0, build: "b11434 (11434)"),
        ])
    }

    @Test func rejectsOutputThatIsNotLlamaBenchJSON() {
        #expect(throws: BackendError.self) { try LlamaBench.parse(Data("main: error".utf8), command: "llama-bench") }
    }

    @Test(arguments: [([Double](), nil), ([3], 3), ([5, 1, 3], 3), ([4, 1, 3, 2], 2.5)] as [([Double], Double?)])
    func median(values: [Double], expected: Double?) {
        #expect(values.median == expected)
    }
}

extension IntegrationTests {
    @Suite struct Bench {
        /// A small run end to end: the figures exist, agree in kind, and llama-bench used the same prompt length.
        @Test func benchComparesClientServerAndLlamaBench() async throws {
            let paths = try TestBackend.requirePaths()
            try #require(FileManager.default.isExecutableFile(atPath: paths.bench),
                         "llama-bench not found at \(paths.bench); run scripts/setup-llama")
            let settings = BackendBenchSettings(promptTokens: 32, generatedTokens: 8, repetitions: 1, threads: 2)
            let report = try await BackendBenchmark(paths: paths, settings: settings,
                                                    runDirectory: TestBackend.runDirectory()).run()
            #expect(report.promptTokens == 32)
            #expect(report.requests.map(\.kind) == [.promptProcessing, .generation, .generationOpenAI, .generationURLSession],
                    "pp, then tg natively, through /v1/completions and through URLSession")
            #expect(report.requests.filter { $0.kind == .promptProcessing }.allSatisfy { $0.server.cacheN == 0 })
            #expect(report.requests.filter { $0.kind != .promptProcessing }.allSatisfy { $0.server.predictedN == 8 })
            #expect(report.clients.map(\.kind) == [.generation, .generationOpenAI, .generationURLSession])
            #expect(report.clients.allSatisfy { $0.requests == 1 && $0.wallRatio == nil }, "one round: no interval to give")
            #expect(report.markdown.contains("| URLSession, /completion | 1 | "))
            #expect(report.llamaBench.map(\.promptTokens) == [32, 0])
            #expect(report.llamaBench.map(\.samplesPerSecond.count) == [1, 1])
            #expect(report.llamaBench.map(\.generatedTokens) == [0, 8])
            #expect(report.markdown.contains("| tg8 via /v1/completions | "))
            for comparison in [report.promptProcessing, report.generation, try #require(report.generationOpenAI),
                               try #require(report.generationURLSession)] {
                // The client and the server time the same tokens: a factor of two apart would be a unit or count gone wrong.
                #expect(comparison.clientToServer > 0.5 && comparison.clientToServer < 2,
                        "client \(comparison.clientPerSecond)/s, server \(comparison.serverPerSecond)/s")
                // llama-bench measures the same model on the same machine, at another moment: one request of the server can
                // run ten times slower when anything else takes a core (llama.cpp's collapse on two cores), so the bound
                // is a factor of a hundred, which a unit gone wrong (×1000) still crosses.
                #expect(comparison.llamaBenchPerSecond > comparison.serverPerSecond / 100 && comparison.llamaBenchPerSecond < comparison.serverPerSecond * 100,
                        "llama-bench \(comparison.llamaBenchPerSecond)/s, server \(comparison.serverPerSecond)/s")
            }
            #expect(report.overheadMs >= 0)
            #expect(report.serverBuild.hasPrefix("b"))
        }
    }
}

/// The Markdown of `bench backend` from a fixed report: the speeds, the clients' costs, the rotation of
/// the ways within rounds (each round's ratio to the native socket request), provenance.
@Suite struct BackendBenchMarkdownTests {
    static func request(_ kind: BenchRequest.Kind, round: Int, wallMs: Double, cpuMs: Double) -> BenchRequest {
        let server = ServerTimings(cacheN: 1, promptN: 2, promptMs: 5, promptPerSecond: 400, predictedN: 8, predictedMs: 100, predictedPerSecond: 70)
        let client = ClientTimings(wallMs: wallMs, headersMs: 1, timeToFirstTokenMs: 6, firstTokenEventMs: 6, lastTokenEventMs: 106, tokenEvents: 8)
        return BenchRequest(kind: kind, repetition: round, clientPerSecond: 70, serverPerSecond: 70, overheadMs: wallMs - 105,
                            clientCPUMs: cpuMs, client: client, server: server)
    }

    @Test func markdownGivesEveryClientsCost() {
        let requests = (1...3).flatMap { round in
            [Self.request(.generation, round: round, wallMs: 107 + Double(round), cpuMs: 0.5),
             Self.request(.generationOpenAI, round: round, wallMs: 108 + Double(round), cpuMs: 0.7),
             Self.request(.generationURLSession, round: round, wallMs: 115 + 2 * Double(round), cpuMs: 9)]
        }
        let speed = SpeedComparison(clientPerSecond: 70, serverPerSecond: 70.1, llamaBenchPerSecond: 78)
        let report = BackendBenchReport(
            settings: BackendBenchSettings(promptTokens: 64, generatedTokens: 8, repetitions: 3, threads: 2), promptTokens: 64,
            model: "/models/gemma.gguf", serverBuild: "b11434-b11434", llamaBenchBuild: "b11434 (11434)",
            promptProcessing: SpeedComparison(clientPerSecond: 390, serverPerSecond: 400, llamaBenchPerSecond: 450),
            generation: speed, generationOpenAI: speed, generationURLSession: speed, overheadMs: 3.5,
            clients: [.generation, .generationOpenAI, .generationURLSession].map { ClientCost(kind: $0, requests: requests) },
            requests: requests, llamaBench: [])
        #expect(report.clients[0].wallRatio == 1 && report.clients[2].wallRatio! > 1.06)
        Snapshot.assert(report.markdown, named: "backend-bench.md")
    }
}

@Suite struct LlamaBenchMergeTests {
    @Test func mergesRunsTestByTest() {
        let pp = LlamaBenchResult(promptTokens: 8, generatedTokens: 0, threads: 2, samplesPerSecond: [10], medianPerSecond: 10, build: "b")
        let tg = LlamaBenchResult(promptTokens: 0, generatedTokens: 4, threads: 2, samplesPerSecond: [1], medianPerSecond: 1, build: "b")
        var pp2 = pp, pp3 = pp, tg2 = tg
        pp2.samplesPerSecond = [30]
        pp3.samplesPerSecond = [20]
        tg2.samplesPerSecond = [3]
        let merged = LlamaBench.merge([pp, tg, pp2, tg2, pp3])
        #expect(merged.map(\.samplesPerSecond) == [[10, 30, 20], [1, 3]])
        #expect(merged.map(\.medianPerSecond) == [20, 2])
    }
}
