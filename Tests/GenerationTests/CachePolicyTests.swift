import Foundation
@testable import Generation
import GenerationTestSupport
import Backend
import TestSupport
import Testing

/// The cache policy against the real server, checked with the server's own counters (`prompt_n`,
/// `cache_n`), never with text: `cold` evaluates every prompt whole, `warm-prefix` finds the
/// instructions cached and evaluates the rest.
@Suite(.serialized)
struct CachePolicyTests {
    static let items = ["Привет! Как прошёл твой день?", "Я сегодня очень устал.", "Спасибо за вчерашний вечер.", "Мне немного грустно."]
        .enumerated().map { PipelineFixture.item("ru-\($0.offset)", "ru", $0.element) }

    func records(_ policy: CachePolicy) async throws -> [GenerationRecord] {
        let client = try await TestServers.shared.server(contextSize: 1024).client(requestTimeout: 60)
        let backend = CacheControlledBackend(client, policy: policy)
        let profile = try PipelineFixture.profile()
        let translator = LlamaTranslator(backend: backend, prompts: PromptBuilder(templates: profile.prompts), sampling: profile.translationSampling)
        let pipeline = ReplyPipeline(profile: profile, backend: backend, translator: translator, detector: FixedDetector(lang: "ru"),
                                     candidates: nil, hints: [:], packs: LanguagePacks(), crisis: try PipelineFixture.crisis(),
                                     bank: try PipelineFixture.bank(), cachePolicy: policy)
        return try await GenerationRunner(pipeline: pipeline, choice: .both, warmup: 1).records(Self.items)
    }

    @Test(.needs(.server)) func coldEvaluatesEveryPromptWhole() async throws {
        let records = try await records(.cold)
        #expect(records.count == 8)
        #expect(records.allSatisfy { $0.cachePolicy == .cold })
        let stages = records.flatMap(\.stages)
        #expect(stages.count >= 8)  // direct: 1 request; pivot: up to 3
        for stage in stages {
            #expect(stage.promptCached == 0 && stage.promptProcessed == stage.promptTokens, "\(stage)")
        }
        // Both orders occur, and an item's two records agree on the order.
        let orders = Dictionary(grouping: records, by: \.itemID).mapValues { Set($0.map(\.routeOrder)) }
        #expect(orders.values.allSatisfy { $0.count == 1 })
        #expect(Set(orders.values.flatMap { $0 }) == [.directFirst, .pivotFirst])
    }

    @Test(.needs(.server)) func warmPrefixFindsTheInstructionsCached() async throws {
        let records = try await records(.warmPrefix)
        let stages = records.flatMap(\.stages)
        #expect(!stages.isEmpty)
        for stage in stages {
            // The prefix came from the cache; the message (at least) was evaluated.
            let cached = try #require(stage.promptCached), processed = try #require(stage.promptProcessed), tokens = try #require(stage.promptTokens)
            #expect(cached > 0 && processed > 0 && processed < tokens, "\(stage)")
        }
    }

    @Test func instructionPrefixEndsAtTheLastBlankLine() {
        #expect(CacheControlledBackend.instructionPrefix("Be kind.\n\nUser: hi\nCompanion:") == "Be kind.\n\n")
        #expect(CacheControlledBackend.instructionPrefix("A\n\nB\n\nC") == "A\n\nB\n\n")
        #expect(CacheControlledBackend.instructionPrefix("no blank line") == nil)
    }
}
