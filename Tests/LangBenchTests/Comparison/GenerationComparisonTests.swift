import Foundation
import LlamaBackend
import Testing
import TestSupport
@testable import LangBench

/// Latency verdicts against the real server: the same config twice is no regression; doubling the
/// generated length is.
@Suite(.serialized)
struct GenerationComparisonTests {
    static let items = (0..<16).map { PipelineFixture.item(String(format: "en-%02d", $0), "en", "Tell me something nice about day \($0).") }
    static let corpus = Corpus(items: items, sources: [CorpusSource(path: "synthetic", format: .tsv, sha256: String(repeating: "c", count: 64), items: items.count)])

    func run(nPredict: Int) async throws -> GenerationReport {
        var profile = try PipelineFixture.profile()
        profile.sampling.nPredict = nPredict
        profile.sampling.stop = []  // generate exactly n_predict tokens: latency scales with it
        profile.sampling.ignoreEOS = true
        profile.sampling.temperature = 0
        let client = try await TestServers.shared.server(contextSize: 1024).client(requestTimeout: 60)
        let pipeline = try PipelineFixture.pipeline(backend: client, detector: FixedDetector(lang: "en"), profile: profile)
        let settings = GenerationReport.Settings(profile: "test", route: .direct, sampling: profile.sampling, translationSampling: profile.translationSampling,
                                                 supportedLanguages: ["en"], detection: "fixed", packs: LanguagePacks(), concurrency: 1, repeats: 1,
                                                 warmup: 1, refuseUnsupported: false, server: [:])
        let runner = GenerationRunner(pipeline: pipeline, choice: .direct, warmup: 1)
        return try await GenerationJob(corpus: Self.corpus, runner: runner, settings: settings, directory: try Fixture.temporaryDirectory(),
                                       command: ["test"], writeReplies: false).run()
    }

    @Test func sameConfigTwiceIsNoRegression() async throws {
        let a = try await run(nPredict: 12), b = try await run(nPredict: 12)
        let comparison = try Comparison(base: RunResults(path: "a", detection: nil, generation: a),
                                        current: RunResults(path: "b", detection: nil, generation: b), thresholds: .default)
        #expect(comparison.checks.contains { $0.metric == "generation.latency_p50" })
        #expect(comparison.regressions.isEmpty, "\(comparison.regressions.map { "\($0.key) \($0.metric) \($0.base) → \($0.current) \($0.interval.map { "\($0.low)–\($0.high)" } ?? "")" })")
    }

    @Test func doubledGenerationLengthIsALatencyRegression() async throws {
        let base = try await run(nPredict: 12), slower = try await run(nPredict: 48)
        let comparison = try Comparison(base: RunResults(path: "a", detection: nil, generation: base),
                                        current: RunResults(path: "b", detection: nil, generation: slower), thresholds: .default)
        let p50 = try #require(comparison.checks.first { $0.metric == "generation.latency_p50" })
        #expect(p50.status == .regression, "ratio \(p50.current / p50.base), interval \(String(describing: p50.interval))")
        #expect(comparison.notes.contains { $0.hasPrefix("sampling changed") })
    }
}
