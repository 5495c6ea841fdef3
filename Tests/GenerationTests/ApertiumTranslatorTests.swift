@testable import Detection
import Foundation
@testable import Generation
import GenerationTestSupport
@testable import Corpus
@testable import Backend
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The pivot through Apertium's real APy server (Debian's apertium-apy with apertium-eng-spa and apertium-mkd-eng,
/// installed by scripts/setup), started and stopped here as a run starts and stops it. Every fault is a real one: a
/// pair left out of the modes directory, a pipeline that never answers, a stopped server.
@Suite(.serialized)
struct ApertiumTranslatorTests {
    static let es = PipelineFixture.item("es-1", "es", "Necesito ayuda con mi cuenta, por favor.")
    static let mk = PipelineFixture.item("mk-1", "mk", "Денеска имав многу долг ден на работа.")

    @Test func translatesAndReadsItsPacksFromTheEngine() async throws {
        let server = try await TestApertium.launch()
        defer { server.stop() }
        let translator = try await ApertiumTranslator.reading(server, name: "apertium")
        #expect(translator.engine.kind == "apertium" && translator.engine.version?.first?.isNumber == true)
        #expect(translator.engine.pairs?.contains("es-en") == true && translator.engine.pairs?.contains("ru-en") == false)
        let result = try await translator.translate(Self.es.text, from: LanguageCode(normalised: "es"), to: LanguageCode(normalised: "en"))
        #expect(result.text.lowercased().contains("help"), "\(result.text)")
        #expect(result.completion == nil && result.ms > 0 && result.ttftMs == result.ms)
        // Installed: listed by /listPairs. Supported: a Debian package would bring it (apertium-isl-eng, not installed
        // here). Unsupported: no package exists (Russian to English), or the installed package does not translate that
        // way (apertium-mkd-eng has no eng→mkd).
        let packs = translator.packs(installedPackages: ["apertium-eng-spa", "apertium-mkd-eng"])
        let state = { (from: String, to: String) in packs.state(from: LanguageCode(normalised: from), to: LanguageCode(normalised: to)) }
        #expect(state("es", "en") == .installed && state("en", "es") == .installed && state("mk", "en") == .installed)
        #expect(state("is", "en") == .supported)
        #expect(state("ru", "en") == .unsupported && state("en", "mk") == .unsupported && state("ja", "en") == .unsupported)
    }

    @Test(.needs(.apertium)) func thePivotTranslatesThroughTheEngineAndCountsOnlyTheModelsTokens() async throws {
        let server = try await TestApertium.launch()
        defer { server.stop() }
        var pipeline = try PipelineFixture.pipeline(backend: try await TestServers.shared.server().client(requestTimeout: 60),
                                                    detector: FixedDetector(lang: "es"))
        let translator = try await ApertiumTranslator.reading(server, name: "apertium")
        pipeline.translator = translator
        pipeline.packs = translator.packs()
        let output = try await PipelineFixture.reply(pipeline, Self.es, .pivot)
        let stages = output.events.filter { $0.outcome == "ok" }.map(\.stage)
        #expect(Array(stages.prefix(4)) == ["detect", "translate-in", "generate", "translate-out"], "\(output.record.errorMessage ?? "")")
        let translateIn = try #require(output.record.translateIn)
        #expect(translateIn.ms > 0 && translateIn.promptTokens == nil && translateIn.completionTokens == nil && translateIn.engine == "apertium")
        #expect(output.record.generate?.engine == nil)
        // The route's tokens are the model's alone: the generate request's.
        #expect(output.record.completionTokens == output.record.generate?.completionTokens)
        #expect(output.record.ttftMs != nil)
    }

    @Test func aRemovedPairFallsBackNamingIt() async throws {
        let server = try await TestApertium.launch(modes: try TestApertium.modes(keeping: ["spa-eng", "eng-spa"]))
        defer { server.stop() }
        let translator = try await ApertiumTranslator.reading(server, name: "apertium")
        #expect(translator.packs(installedPackages: ["apertium-mkd-eng"]).state(from: Self.mk.lang, to: LanguageCode(normalised: "en")) == .unsupported)
        // Asked anyway (packs read before the pair went), APy says the pair is not installed, and the item falls back.
        var pipeline = try PipelineFixture.pipeline(backend: UnusedBackend(), detector: FixedDetector(lang: "mk"))
        pipeline.translator = translator
        let output = try await PipelineFixture.reply(pipeline, Self.mk, .pivot)
        #expect(output.record.fallbackReason == .translationPackMissing)
        #expect(output.record.errorMessage?.hasPrefix("apertium pair mkd-eng is not installed at http://127.0.0.1:") == true, "\(output.record.errorMessage ?? "")")
        #expect(!output.reply.isEmpty)
    }

    /// A pair whose pipeline hangs (reads and never prints) and one whose pipeline dies at once (APy adds `-z`, which
    /// `sleep` refuses): APy answers 503 for both, after its timeout for the hung one, and restarts the pipeline.
    @Test(arguments: [("grep thispatternnevermatches", 2.0), ("sleep 60", 0.0)])
    func aStuckOrBrokenPairFallsBackNamingIt(pipeline mode: String, atLeast seconds: Double) async throws {
        let server = try await TestApertium.launch(modes: try TestApertium.modes(keeping: [], extra: ["mkd-eng": mode]), pipelineTimeout: 2)
        defer { server.stop() }
        let translator = try await ApertiumTranslator.reading(server, name: "apertium")
        var pipeline = try PipelineFixture.pipeline(backend: UnusedBackend(), detector: FixedDetector(lang: "mk"))
        pipeline.translator = translator
        let start = ContinuousClock.now
        let output = try await PipelineFixture.reply(pipeline, Self.mk, .pivot)
        #expect((ContinuousClock.now - start) >= .seconds(seconds))
        #expect(output.record.fallbackReason == .translationFailed)
        #expect(output.record.errorMessage?.hasPrefix("HTTP 503 from apertium at http://127.0.0.1:") == true, "\(output.record.errorMessage ?? "")")
        #expect(output.record.errorMessage?.hasSuffix("(the pair's pipeline hung or closed; APy restarts it)") == true)
        #expect(output.record.errorMessage?.contains(Self.mk.text) == false)
    }

    @Test func aStoppedEngineFallsBackAndLeavesNoProcess() async throws {
        let server = try await TestApertium.launch()
        let translator = try await ApertiumTranslator.reading(server, name: "apertium")
        let pid = try #require(server.processID)
        server.stop()
        #expect(kill(pid, 0) != 0, "apertium-apy \(pid) still runs after stop")
        var pipeline = try PipelineFixture.pipeline(backend: UnusedBackend(), detector: FixedDetector(lang: "es"))
        pipeline.translator = translator
        let output = try await PipelineFixture.reply(pipeline, Self.es, .pivot)
        #expect(output.record.fallbackReason == .translationFailed)
        #expect(output.record.errorMessage?.hasPrefix("apertium unreachable: connection refused at http://127.0.0.1:") == true, "\(output.record.errorMessage ?? "")")
        #expect(output.events.contains { $0.stage == "translate-in" && $0.errorType == "engineUnavailable" })
    }
}
