@testable import Detection
import Foundation
@testable import Generation
import GenerationTestSupport
@testable import Corpus
@testable import Suite
import Recognizer
import TestSupport
import Testing

/// The built-in recognizer as the harness uses it: made by the factory from the name `builtin`, with
/// the bundled model, run through a detection job.
struct BuiltinDetectorTests {
    @Test func theFactoryMakesTheBundledRecognizer() async throws {
        let detector = try await DetectorFactory().make("builtin")
        #expect(detector.name == "builtin")
        let ru = LanguageCode(normalised: "ru"), uk = LanguageCode(normalised: "uk")
        let outcome = await detector.identify("Добрый вечер, как дела?", candidates: [ru, uk], hints: [:])
        guard case .hypotheses(let hypotheses) = outcome else {
            Issue.record("expected hypotheses, got \(outcome)")
            return
        }
        #expect(hypotheses.first?.lang == ru)
        #expect(Set(hypotheses.map(\.lang)).isSubset(of: [ru, uk]), "candidates constrain the answer")
        #expect(await detector.identify("12345 !!!", candidates: nil, hints: [:]) == .undetermined)
    }

    @Test func aMissingModelFileIsAModelError() async throws {
        let factory = DetectorFactory(recognizerModel: "/nonexistent/recognizer.lbrm")
        do {
            _ = try await factory.make("builtin")
            Issue.record("a missing model file loaded")
        } catch let error as ModelError {
            guard case .unreadable(let path, _) = error else { Issue.record("expected unreadable, got \(error)"); return }
            #expect(path == "/nonexistent/recognizer.lbrm")
        }
    }

    @Test func theDefaultConfigsRunWithTheBuiltinRecognizer() async throws {
        let corpus = try CorpusLoader().load([Fixture.path("corpus/tiny.tsv", target: "CorpusTests")])
        let directory = try Fixture.temporaryDirectory()
        let profile = try PipelineFixture.profile()
        let report = try await DetectionJob(corpus: corpus, configs: DetectionConfig.defaults(), supported: profile.supportedLanguages,
                                            factory: DetectorFactory(), directory: directory, command: ["test"]).run()
        #expect(report.configs.map(\.name) == ["unconstrained", "constrained", "constrained+priors"])
        let results = try DetectionStore.readRun(directory.path).results
        #expect(results.count == 3 * corpus.items.count)
        #expect(results.allSatisfy { $0.error == nil })
        let unconstrained = try #require(report.metrics(config: "unconstrained"))
        #expect(unconstrained.correct >= 3, "the recognizer gets most of five clear greetings right")
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent(DetectionOutput.markdownFile).path))
    }
}
