import Checks
@testable import Detection
import Foundation
@testable import Generation
import GenerationTestSupport
@testable import Comparison
import TestSupport
import Testing

/// The token cost gate on fixed records: exact totals of fixed prompts per route, judged on any latency basis, with
/// the records that changed and the stage that moved; generated tokens and prompts of sampled text tested over items.
struct TokenCostTests {
    static func compare(_ base: [GenerationRecord], _ current: [GenerationRecord], latency: LatencyBasis = .skip,
                        currentModel: String? = nil) throws -> Comparison {
        let report = { (records: [GenerationRecord], model: String?) in
            var settings = GenerationFixtures.settings
            if let model { settings.server["model_sha256"] = model }
            return GenerationReport(records: records, settings: settings, warmupRuns: 0, provenance: GenerationFixtures.provenance("x"))
        }
        return try Comparison(base: RunResults(path: "a", detection: nil, generation: report(base, nil)),
                              current: RunResults(path: "b", detection: nil, generation: report(current, currentModel)), thresholds: .default,
                              allowMismatch: currentModel != nil, latency: latency)
    }

    static func cost(_ comparison: Comparison, _ measure: TokenCost.Measure, route: Route) throws -> MetricCheck {
        try #require(comparison.checks.first { $0.metric == measure.rawValue && $0.key == CheckKey([.route: "\(route.rawValue)"]) })
    }

    @Test func theSameRecordsCostTheSame() throws {
        let records = try GenerationFixtures.records("base")
        let comparison = try Self.compare(records, records)
        for measure in TokenCost.Measure.allCases {
            for route in [Route.direct, .pivot] where !(measure == .sampledPrompt && route == .direct) {
                let check = try Self.cost(comparison, measure, route: route)
                #expect(check.delta == 0 && check.status == .unchanged && (check.changes ?? []) == [], "\(measure) \(route)")
            }
        }
        // The direct route's prompts embed no generated text: no such check there.
        #expect(!comparison.checks.contains { $0.metric == TokenCost.Measure.sampledPrompt.rawValue && $0.key == CheckKey([.route: "direct"]) })
    }

    @Test func morePromptTokensOnThePivotIsARegressionNamingTheStage() throws {
        let base = try GenerationFixtures.records("base")
        var current = base
        for index in current.indices where current[index].route == .pivot && current[index].translateIn != nil {
            current[index].translateIn!.promptProcessed! += 200
            current[index].translateIn!.promptTokens! += 200
        }
        let comparison = try Self.compare(base, current)
        let evaluated = try Self.cost(comparison, .fixedPrompt, route: .pivot)
        #expect(evaluated.status == .regression)
        #expect(evaluated.current > evaluated.base * 1.05)
        #expect(evaluated.changes?.count == TokenCost.listedItems)
        let first = try #require(evaluated.changes?.first)
        #expect(first.hasSuffix("(translate-in +200)"), "\(first)")
        #expect(try Self.cost(comparison, .fixedPrompt, route: .direct).status == .unchanged)
        #expect(try Self.cost(comparison, .generated, route: .pivot).status == .unchanged)
        #expect(comparison.regressions.count == 1)
        // The same change, fewer tokens instead: an improvement, which never fails the job.
        let cheaper = try Self.compare(current, base)
        #expect(try Self.cost(cheaper, .fixedPrompt, route: .pivot).status == .improvement)
        #expect(cheaper.regressions.isEmpty)
    }

    @Test func aChangeWithinTheThresholdIsUnchangedButCounted() throws {
        let base = try GenerationFixtures.records("base")
        var current = base
        let index = try #require(current.firstIndex { $0.route == .direct && $0.outcome == .model && $0.generate != nil })
        current[index].generate!.promptProcessed! += 1
        let check = try Self.cost(try Self.compare(base, current), .fixedPrompt, route: .direct)
        #expect(check.status == .unchanged)
        #expect(check.rule.contains("1 of \(check.n) records changed"))
    }

    /// Another model file may tokenize differently: its prompt counts are shown, never compared exactly.
    @Test func anotherModelFileIsNotComparedExactly() throws {
        let base = try GenerationFixtures.records("base")
        var current = base
        for index in current.indices where current[index].route == .pivot && current[index].translateIn != nil {
            current[index].translateIn!.promptProcessed! += 200
        }
        let comparison = try Self.compare(base, current, currentModel: String(repeating: "e", count: 64))
        let check = try Self.cost(comparison, .fixedPrompt, route: .pivot)
        #expect(check.status == .unchanged && check.rule.contains("not judged: the runs' model files differ"))
        #expect(comparison.environment.contains { $0.name == "model file (SHA-256)" })
    }

    @Test func requestsThatReusedTheCacheUnderTheColdPolicyAreNotJudged() throws {
        let base = try GenerationFixtures.records("base")
        var current = base
        for index in current.indices where current[index].route == .direct && current[index].generate != nil {
            current[index].generate!.promptCached = 40
            current[index].generate!.promptProcessed! -= 40
        }
        let check = try Self.cost(try Self.compare(base, current), .fixedPrompt, route: .direct)
        #expect(check.status == .unchanged)
        #expect(check.rule.contains("not judged"))
    }

    /// An OpenAI-compatible server without `usage` leaves counts unknown: never counted as zero.
    @Test func unknownCountsAreNotJudged() throws {
        let base = try GenerationFixtures.records("base")
        var current = base
        let index = try #require(current.firstIndex { $0.route == .direct && $0.outcome == .model && $0.generate != nil })
        current[index].generate!.completionTokens = nil
        let check = try Self.cost(try Self.compare(base, current), .generated, route: .direct)
        #expect(check.status == .unchanged)
        #expect(check.rule.contains("not judged: the server gave no token counts for 1 record(s)"))
    }

    @Test func theThresholdIsData() throws {
        let file = try Fixture.temporaryDirectory().appendingPathComponent("thresholds.json")
        try #"{"token_cost_ratio": 0.2}"#.write(to: file, atomically: true, encoding: .utf8)
        #expect(try Thresholds.named(file.path).tokenCostRatio == 0.2)
        #expect(try Thresholds.named("strict").tokenCostRatio == 0.02)
        try #"{"token_cost_ratio": -1}"#.write(to: file, atomically: true, encoding: .utf8)
        #expect(throws: (any Error).self) { try Thresholds.named(file.path) }
    }
}

/// The latency and token measures name their metrics as enum raw values; the verdict's notes and the
/// pages match on `MetricName`'s.
@Test func measuresAreNamedAsTheChecksVocabularyNamesThem() {
    #expect(GenerationComparer.LatencyMetric.allCases.map(\.rawValue) == [MetricName.latency, MetricName.ttft, MetricName.tpot])
    #expect(TokenCost.Measure.generated.rawValue == MetricName.tokensGenerated)
}
