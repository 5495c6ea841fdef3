import Support
@testable import Detection
import Foundation
@testable import Generation
import GenerationTestSupport
@testable import Corpus
@testable import Suite
import Backend
import TestSupport
import Testing

/// A generation run whose pivot translates through Apertium: LangBench starts APy (Debian's, installed by
/// scripts/setup) beside the real llama-server, reads the packs from it, records the engine, and stops it when
/// the run ends. Spanish has a pair here; Russian has none, so its pivot falls back saying so.
@Suite(.serialized)
struct TranslationEngineRunTests {
    static let items = [PipelineFixture.item("es-1", "es", "Hoy tuve un día muy largo en el trabajo."),
                        PipelineFixture.item("ru-1", "ru", "Сегодня у меня был очень длинный день.")]

    static func setup(directory: URL, translator: TranslatorSpec) throws -> GenerationSetup {
        var plan = GenerationPlan()
        plan.route = .pivot
        plan.warmup = 0
        plan.seed = 5
        plan.translator = translator
        plan.bankPath = PipelineFixture.repository.appendingPathComponent(FallbackBank.defaultResource).path
        plan.crisisPath = PipelineFixture.repository.appendingPathComponent(CrisisCheck.defaultResource).path
        var profile = try PipelineFixture.profile()
        profile.sampling.nPredict = 16
        let factory = DetectorFactory(recognizerModel: PipelineFixture.repository.appendingPathComponent("Models/recognizer.lbrm").path)
        ServerReaper.installSignalHandlers()
        return GenerationSetup(plan: plan, factory: factory, profile: profile, directory: directory, environment: ProcessInfo.processInfo.environment)
    }

    @Test(.needs(.server)) func aRunStartsApertiumPivotsThroughItAndStopsIt() async throws {
        let directory = try Fixture.temporaryDirectory("langbench-apertium-run")
        var setup = try Self.setup(directory: directory, translator: .apertium(nil))
        let references = directory.appendingPathComponent("references.tsv")
        try Data("id\treference_en\nes-1\tToday I had a very long day at work.\n".utf8).write(to: references)
        setup.plan.referencesPath = references.path
        let report = try await setup.run(corpus: Corpus(items: Self.items, sources: []), command: ["test"], resume: false)
        let engine = try #require(report.settings.translator)
        #expect(engine.kind == "apertium" && engine.name == "apertium" && engine.version != nil)
        // The engine's requests have no prompt cache: the cold policy is judged on the model's requests alone.
        #expect(report.cache.holds && !report.timingDesign.contains("⚠️"), "\(report.timingDesign)")
        #expect(report.timingDesign.contains("The pivot translated with apertium \(engine.version ?? "")"))
        // One route: no order to counterbalance, so no "0 direct first, 0 pivot first".
        #expect(report.timingDesign.hasPrefix("cache policy"), "\(report.timingDesign)")
        #expect(report.settings.packs.state(from: LanguageCode(normalised: "es"), to: LanguageCode(normalised: "en")) == .installed)
        let records = try GenerationStore.records(in: directory)
        let es = try #require(records.first { $0.itemID == "es-1" })
        #expect(es.translateIn != nil && es.translateIn?.promptTokens == nil, "\(es.errorMessage ?? "")")
        // Scored against the reference, per engine and language.
        #expect(report.translationQuality.map { [$0.engine, $0.lang, String($0.n)] } == [["apertium", "es", "1"]])
        #expect(report.translationQualityTable?.columns.map(\.name) == ["engine", "lang", "n", "mean_chrf", "ci"])
        #expect(es.translateInChrF.map { $0 > 0 && $0 <= 100 } == true)
        #expect(report.settings.references?.hasPrefix("references.tsv (SHA-256 ") == true)
        let ru = try #require(records.first { $0.itemID == "ru-1" })
        #expect(ru.fallbackReason == .translationUnsupported)
        // The APy LangBench started logged into the run directory and is gone.
        let log = try String(contentsOf: directory.appendingPathComponent("apertium-apy.log"), encoding: .utf8)
        let port = try #require(log.range(of: #"localhost:\d+"#, options: .regularExpression).map { String(log[$0].dropFirst("localhost:".count)) })
        await #expect(throws: (any Error).self) { _ = try await ApertiumClient(baseURL: URL(string: "http://127.0.0.1:\(port)")!).listPairs(timeout: 2) }
    }

    /// The default suite's engines side by side (`Profiles/variants/translators.json`): the variant that changes only the
    /// translator runs the pivot alone, for the messages not detected as English, and the decision table shows both pivots.
    @Test(.needs(.server)) func bothEnginesSideBySideRunTheSecondOnlyWhereItTranslates() async throws {
        let directory = try Fixture.temporaryDirectory("langbench-engines-side-by-side")
        var setup = try Self.setup(directory: directory, translator: .llm)
        setup.plan.route = .both
        setup.plan.variantsPath = PipelineFixture.repository.appendingPathComponent("Profiles/variants/translators.json").path
        let references = directory.appendingPathComponent("references.tsv")
        try Data("id\treference_en\nes-1\tToday I had a very long day at work.\nru-1\tToday I had a very long day.\n".utf8).write(to: references)
        setup.plan.referencesPath = references.path
        let items = Self.items + [PipelineFixture.item("en-1", "en", "I had a very long day at work today.")]
        let report = try await setup.run(corpus: Corpus(items: items, sources: []), command: ["test"], resume: false)
        let records = try GenerationStore.records(in: directory)
        let apertium = records.filter { $0.variant == "apertium" }
        #expect(apertium.map { "\($0.itemID) \($0.route.rawValue)" }.sorted() == ["es-1 pivot", "ru-1 pivot"])
        #expect(records.filter { $0.variant == "llm" }.count == 6)
        #expect(apertium.first { $0.itemID == "ru-1" }?.fallbackReason == .translationUnsupported)
        #expect(report.pivotOnlyVariants == ["apertium"])
        let es = try #require(report.routeDecisions.first { $0.lang == "es" })
        #expect(es.otherPivots?["apertium"]?.n == 1)
        #expect(report.routeDecisionTable.columns.map(\.title).suffix(2) == ["pivot via apertium served", "pivot via apertium p50 ms"])
        #expect(report.settings.variants?.last?.translator?.kind == "apertium")
        // Variants named after their engines: the quality table needs no variant column beside the engine's.
        #expect(report.translationQualityTable?.columns.map(\.name) == ["engine", "lang", "n", "mean_chrf", "ci"])
        #expect(report.translationQuality.map { "\($0.engine) \($0.lang)" } == ["llm es", "llm ru", "apertium es"])
    }

    @Test(.needs(.server)) func anEngineThatCannotStartStopsTheRunBeforeAnyServer() async throws {
        let directory = try Fixture.temporaryDirectory("langbench-apertium-missing")
        var setup = try Self.setup(directory: directory, translator: .apertium(nil))
        setup.environment["LANGBENCH_APERTIUM_APY"] = "/nonexistent/apertium-apy"
        await #expect { _ = try await setup.run(corpus: Corpus(items: Self.items, sources: []), command: ["test"], resume: false) } throws: { error in
            "\(error)".contains("apertium-apy not found (/nonexistent/apertium-apy)")
        }
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("llama-server.log").path))
    }
}
