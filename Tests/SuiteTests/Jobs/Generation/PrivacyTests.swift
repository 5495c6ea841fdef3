@testable import Detection
import Foundation
@testable import Generation
import GenerationTestSupport
@testable import Corpus
@testable import Suite
import TestSupport
import Testing

/// Diagnostics hold metadata only, and nothing at all for crisis-flagged messages.
struct PrivacyTests {
    @Test(.needs(.simulation)) func noCorpusTextReachesDiagnostics() async throws {
        let root = PipelineFixture.repository
        let corpus = try CorpusLoader().load(["chat-prompts.tsv", "short-phrases.tsv", "cyrillic-confusables.tsv"].map {
            root.appendingPathComponent("Corpora/\($0)").path
        })
        let gold = Dictionary(corpus.items.map { ($0.text, $0.lang) }, uniquingKeysWith: { first, _ in first })
        // Half the pivot languages lack a pack, so failure paths with messages are exercised too.
        let packs = LanguagePacks(defaultState: .installed, pairs: ["kk-en": .supported, "bg-en": .unsupported, "en-mk": .supported])
        let pipeline = try PipelineFixture.pipeline(backend: EchoBackend(), detector: OracleDetector(gold: gold, otherwise: nil), packs: packs)
        let directory = try Fixture.temporaryDirectory()
        let runner = GenerationRunner(pipeline: pipeline, choice: .auto, warmup: 0)
        let settings = GenerationReport.Settings(profile: "test", route: .auto, sampling: try PipelineFixture.profile().sampling,
                                                 translationSampling: try PipelineFixture.profile().translationSampling, supportedLanguages: [],
                                                 detection: "oracle", packs: packs, concurrency: 1, repeats: 1, warmup: 0,
                                                 refuseUnsupported: false, server: [:])
        let job = GenerationJob(corpus: corpus, runner: runner, settings: settings, directory: directory, command: ["test"])
        let report = try await job.run()
        let diagnostics = try String(contentsOf: directory.appendingPathComponent(GenerationOutput.diagnosticsFile), encoding: .utf8)
        #expect(!diagnostics.isEmpty)
        var texts = corpus.items.map(\.text) + corpus.items.flatMap { $0.history.map(\.text) }
        texts = texts.filter { $0.count >= 4 }  // shorter strings (e.g. "ok") collide with field values
        // Every key and string value in the file, deduplicated (most repeat), then searched for every text.
        var fields = Set<String>()
        for line in diagnostics.split(separator: "\n") {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            for (key, value) in object {
                fields.insert(key)
                if let text = value as? String { fields.insert(text) }
            }
        }
        let leaked = texts.filter { text in fields.contains { $0.contains(text) } }
        #expect(leaked.isEmpty, "message text in diagnostics: \(leaked.prefix(3))")
        let crisisIDs = corpus.items.filter { $0.tags.contains("crisis") }.map(\.id)
        #expect(!crisisIDs.isEmpty)
        for id in crisisIDs { #expect(!diagnostics.contains("\"\(id)\""), "diagnostics mention crisis item \(id)") }
        #expect(report.records.contains { $0.fallbackReason == .translationPackMissing })
        #expect(report.records.contains { $0.fallbackReason == .translationUnsupported })
        #expect(report.records.filter { $0.fallbackReason == .crisisProtocol }.count == crisisIDs.count)
        // The replies file is where text is allowed to live.
        let replies = try String(contentsOf: directory.appendingPathComponent(GenerationOutput.repliesFile), encoding: .utf8)
        #expect(replies.contains("\"reply\""))
    }

}
