import Foundation
import LlamaBackend
import Testing
@testable import LangBench

/// Every fallback reason the pipeline can produce, each caused by the real server and model or a
/// real fault (a dead port, a killed server, a context overflow), not a mock of the server.
@Suite(.serialized)
struct PipelineFallbackTests {
    static let ru = PipelineFixture.item("ru-1", "ru", "Привет! Как прошёл твой день?")

    func client(_ contextSize: Int = 1024, timeout: Double = 60) async throws -> LlamaClient {
        try await TestServers.shared.server(contextSize: contextSize).client(requestTimeout: timeout)
    }

    @Test func directReplyFromTheRealModel() async throws {
        let pipeline = try PipelineFixture.pipeline(backend: try await client(), detector: FixedDetector(lang: "en"))
        let output = await PipelineFixture.reply(pipeline, PipelineFixture.item("en-1", "en", "I finally finished my exam today!"), .direct)
        #expect(output.record.outcome == .model, "\(output.record.errorMessage ?? "")")
        #expect(!output.reply.isEmpty)
        #expect(output.record.generateMs ?? 0 > 0)
        #expect(output.record.completionTokens > 0)
        #expect(output.record.ttftMs != nil)
    }

    @Test func pivotTranslatesThreeTimes() async throws {
        let pipeline = try PipelineFixture.pipeline(backend: try await client(), detector: FixedDetector(lang: "ru"))
        let output = await PipelineFixture.reply(pipeline, Self.ru, .pivot)
        #expect(output.record.fallbackReason == nil, "\(output.record.errorMessage ?? "")")
        #expect(output.record.translateInMs != nil && output.record.generateMs != nil && output.record.translateOutMs != nil)
        #expect(output.events.map(\.stage) == ["detect", "translate-in", "generate", "translate-out", "check-language"])
    }

    @Test func missingPackFallsBack() async throws {
        let packs = LanguagePacks(defaultState: .installed, pairs: ["en-ru": .supported])
        let pipeline = try PipelineFixture.pipeline(backend: try await client(), detector: FixedDetector(lang: "ru"), packs: packs)
        let output = await PipelineFixture.reply(pipeline, Self.ru, .pivot)
        #expect(output.record.fallbackReason == .translationPackMissing)
        #expect(output.record.errorMessage == "translation pack en-ru is downloadable but not installed")
        #expect(try PipelineFixture.bank().languages.contains("ru"))
        #expect(output.reply != "")
    }

    @Test func unsupportedPackFallsBack() async throws {
        let pipeline = try PipelineFixture.pipeline(backend: try await client(), detector: FixedDetector(lang: "ru"),
                                                packs: LanguagePacks(defaultState: .unsupported))
        #expect(await PipelineFixture.reply(pipeline, Self.ru, .pivot).record.fallbackReason == .translationUnsupported)
    }

    @Test func refusedUnsupportedLanguage() async throws {
        let pipeline = try PipelineFixture.pipeline(backend: try await client(), detector: FixedDetector(lang: "ru"), refuseUnsupported: true)
        #expect(await PipelineFixture.reply(pipeline, Self.ru, .direct).record.fallbackReason == .unsupportedLanguage)
    }

    @Test func nothingListeningIsModelUnavailable() async throws {
        let dead = LlamaClient(baseURL: URL(string: "http://127.0.0.1:9")!, requestTimeout: 5)
        let pipeline = try PipelineFixture.pipeline(backend: dead, detector: FixedDetector(lang: "en"))
        let output = await PipelineFixture.reply(pipeline, PipelineFixture.item("en-1", "en", "Hi there"), .direct)
        #expect(output.record.fallbackReason == .modelUnavailable)
        #expect(output.record.errorMessage?.contains("connection refused") == true)
    }

    @Test func killedServerIsModelUnavailable() async throws {
        let server = try await TestServers.launch()
        let pipeline = try PipelineFixture.pipeline(backend: server.client(requestTimeout: 10), detector: FixedDetector(lang: "en"))
        server.stop()
        let output = await PipelineFixture.reply(pipeline, PipelineFixture.item("en-1", "en", "Hi there"), .direct)
        #expect(output.record.fallbackReason == .modelUnavailable)
    }

    @Test func slowAnswerIsATimeout() async throws {
        var profile = try PipelineFixture.profile()
        profile.sampling.nPredict = 400
        profile.sampling.stop = []
        let pipeline = try PipelineFixture.pipeline(backend: try await client(timeout: 0.3), detector: FixedDetector(lang: "en"), profile: profile)
        let output = await PipelineFixture.reply(pipeline, PipelineFixture.item("en-1", "en", "Tell me a long story"), .direct)
        #expect(output.record.fallbackReason == .timeout)
    }

    @Test func contextOverflowIsAGenerationErrorWithTheServerMessage() async throws {
        let pipeline = try PipelineFixture.pipeline(backend: try await client(512), detector: FixedDetector(lang: "en"))
        let long = String(repeating: "I walked to the park and then I went home again. ", count: 60)
        let output = await PipelineFixture.reply(pipeline, PipelineFixture.item("en-1", "en", long), .direct)
        #expect(output.record.fallbackReason == .generationError)
        #expect(output.record.errorMessage?.contains("exceeds the available context size") == true)
    }

    @Test func emptyOutput() async throws {
        var profile = try PipelineFixture.profile()
        profile.sampling.temperature = 0
        profile.sampling.stop = [" ", "\n"]  // the reply's first token starts with a space: nothing is left
        let pipeline = try PipelineFixture.pipeline(backend: try await client(), detector: FixedDetector(lang: "en"), profile: profile)
        let output = await PipelineFixture.reply(pipeline, PipelineFixture.item("en-1", "en", "How are you?"), .direct)
        #expect(output.record.fallbackReason == .emptyOutput)
    }

    @Test func emptyTranslationIsATranslationFailure() async throws {
        var sampling = try PipelineFixture.profile().translationSampling
        sampling.stop = [" ", "\n"]
        let pipeline = try PipelineFixture.pipeline(backend: try await client(), detector: FixedDetector(lang: "ru"), translationSampling: sampling)
        let output = await PipelineFixture.reply(pipeline, Self.ru, .pivot)
        #expect(output.record.fallbackReason == .translationFailed)
    }

    @Test func replyInAnotherLanguageIsCaught() async throws {
        let pipeline = try PipelineFixture.pipeline(backend: try await client(), detector: FixedDetector(lang: "de"))
        let output = await PipelineFixture.reply(pipeline, PipelineFixture.item("en-1", "en", "Hi"), .direct)
        // The message is read as German, so the reply must be German; the detector reads the reply as German too.
        #expect(output.record.outcome == .model)
        let strict = try PipelineFixture.pipeline(backend: try await client(), detector: SwitchingDetector())
        let caught = await PipelineFixture.reply(strict, PipelineFixture.item("en-1", "en", "Hi there, how are you?"), .direct)
        #expect(caught.record.fallbackReason == .wrongOutputLanguage)
        #expect(caught.record.replyLang == "de" && caught.record.replyLangOK == false)
    }

    @Test func historyThatCannotBeTranslatedIsDroppedNotAFallback() async throws {
        let longTurn = String(repeating: "Это очень длинная история о моём дне. ", count: 60)
        let item = PipelineFixture.item("ru-2", "ru", "Что скажешь?", history: [Turn(role: .user, text: longTurn), Turn(role: .assistant, text: "Понимаю.")])
        let pipeline = try PipelineFixture.pipeline(backend: try await client(512), detector: FixedDetector(lang: "ru"))
        let output = await PipelineFixture.reply(pipeline, item, .pivot)
        #expect(output.record.history == .dropped)
        #expect(output.record.fallbackReason != .translationFailed)
        #expect(output.events.contains { $0.stage == "translate-history" && $0.outcome == "dropped" })
    }

    @Test func crisisGetsTheSafeReplyAndNoDiagnostics() async throws {
        let pipeline = try PipelineFixture.pipeline(backend: UnusedBackend(), detector: FixedDetector(lang: "en"))
        let output = await PipelineFixture.reply(pipeline, PipelineFixture.item("c-1", "en", "I don't want to live anymore", tags: ["crisis"]), .direct)
        #expect(output.record.fallbackReason == .crisisProtocol)
        #expect(output.events.isEmpty)
        #expect(try output.reply == PipelineFixture.bank().crisisReply(for: LanguageCode(normalised: "en")))
    }
}

/// Reads the user's message as English and every reply as German.
struct SwitchingDetector: LanguageIdentifying {
    var name: String { "switching" }
    func identify(_ text: String, candidates: [LanguageCode]?, hints: [LanguageCode: Double]) async -> DetectionOutcome {
        .hypotheses([Hypothesis(lang: LanguageCode(normalised: text == "Hi there, how are you?" ? "en" : "de"), probability: 1)])
    }
}
