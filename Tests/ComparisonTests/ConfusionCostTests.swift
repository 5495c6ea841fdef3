import Support
import Checks
@testable import Detection
import Foundation
import GenerationTestSupport
import Corpus
@testable import Comparison
import Provenance
import TestSupport
import Testing

/// Errors weighed by what they cost: a change that trades ru→uk errors for uk→ru ones fails at equal accuracy.
struct ConfusionCostTests {
    static let costs = ConfusionCosts(defaultCost: 1, costs: ["uk->ru": 3])

    /// A detection run of one config written in the real format, its report weighed by `costs`.
    static func run(_ predictions: [(id: String, gold: String, predicted: String)], costs: ConfusionCosts?) throws -> RunResults {
        let directory = try Fixture.temporaryDirectory()
        let echoes = [DetectionReport.ConfigEcho(name: "c", detector: "d", candidates: "ru,uk", resolvedCandidates: ["ru", "uk"], hints: "none")]
        let store = try DetectionStore.Writer(creating: directory, header: DetectionLogHeader(configs: echoes, settings: .init()), echoes: echoes,
                                              itemCount: predictions.count)
        for (position, item) in predictions.sorted(by: { $0.id < $1.id }).enumerated() {
            try store.record(DetectionResult(itemID: item.id, lang: LanguageCode(normalised: item.gold), tags: [], length: .one, config: "c", detector: "d",
                                             predicted: LanguageCode(normalised: item.predicted), confidence: 1, itemHash: "0000000000000000"),
                             config: 0, position: position)
        }
        var report = try store.finish(timings: [], provenance: Provenance(command: ["test"], corpora: []))
        report.confusionCosts = costs
        try DetectionOutput.write(report, to: directory)
        return try RunResults.load(directory.path)
    }

    /// 35 Russian and 35 Ukrainian items (fewer than 40 each: no per-language check); `ruWrong` Russian items called
    /// Ukrainian, `ukWrong` Ukrainian items called Russian.
    static func predictions(ruWrong: Int, ukWrong: Int) -> [(id: String, gold: String, predicted: String)] {
        (0..<35).map { (String(format: "r%02d", $0), "ru", $0 < ruWrong ? "uk" : "ru") } + (0..<35).map { (String(format: "u%02d", $0), "uk", $0 < ukWrong ? "ru" : "uk") }
    }

    @Test func tradingRuToUkErrorsForUkToRuOnesFailsAtEqualAccuracy() throws {
        let base = try Self.run(Self.predictions(ruWrong: 15, ukWrong: 0), costs: Self.costs)
        let current = try Self.run(Self.predictions(ruWrong: 0, ukWrong: 15), costs: Self.costs)
        let comparison = try Comparison(base: base, current: current, thresholds: .default)
        let accuracy = try #require(comparison.checks.first { $0.metric == "detection.accuracy" })
        #expect(accuracy.delta == 0 && accuracy.status == .unchanged)
        let cost = try #require(comparison.checks.first { $0.metric == MetricName.confusionCost })
        #expect(abs(cost.base - 15.0 / 70) < 1e-12 && abs(cost.current - 45.0 / 70) < 1e-12)
        #expect(cost.status == .regression && cost.kind == .detection && cost.gating, "\(cost.rule) p \(cost.adjustedP ?? -1)")
        // The reverse trade is an improvement, never a failure.
        let reverse = try Comparison(base: current, current: base, thresholds: .default)
        #expect(reverse.regressions.isEmpty && reverse.checks.first { $0.metric == MetricName.confusionCost }?.status == .improvement)
    }

    /// `count` Russian and `count` Ukrainian items, the first `ruWrong` Russian ones called Ukrainian and the first
    /// `ukWrong` Ukrainian ones called Russian.
    static func many(_ count: Int, ruWrong: Int, ukWrong: Int) -> [(id: String, gold: String, predicted: String)] {
        (0..<count).map { (String(format: "r%05d", $0), "ru", $0 < ruWrong ? "uk" : "ru") }
            + (0..<count).map { (String(format: "u%05d", $0), "uk", $0 < ukWrong ? "ru" : "uk") }
    }

    /// The CI job's detection compare: α 0.025.
    static let job = { var thresholds = Thresholds.default; thresholds.alpha = 0.025; return thresholds }()

    /// Five items traded among 2,000 at equal accuracy: the mean over all items barely moves (+0.005), the errors made
    /// cost three times those removed — red at the CI job's detection α, where no accuracy check can see five items.
    @Test func aFiveItemTradeAmongTwoThousandIsRed() throws {
        let base = try Self.run(Self.many(1_000, ruWrong: 5, ukWrong: 0), costs: Self.costs)
        let current = try Self.run(Self.many(1_000, ruWrong: 0, ukWrong: 5), costs: Self.costs)
        let comparison = try Comparison(base: base, current: current, thresholds: Self.job)
        let cost = try #require(comparison.checks.first { $0.metric == MetricName.confusionCost })
        #expect(abs(cost.delta - 10.0 / 2_000) < 1e-12)
        #expect(cost.status == .regression && cost.gating, "\(cost.rule) p \(cost.pValue ?? -1) level \(cost.level ?? -1)")
        #expect(abs((cost.pValue ?? 1) - 1.0 / 252) < 1e-9, "all five costly errors among the ten: 1 of C(10, 5) draws")
        #expect(comparison.regressions.map(\.metric) == [MetricName.confusionCost])
        // No change, and churn that trades errors of equal cost both ways, stay green.
        #expect(try Comparison(base: base, current: base, thresholds: Self.job).regressions.isEmpty)
        let equal = ConfusionCosts(defaultCost: 1, costs: [:])
        let churned = try Comparison(base: try Self.run(Self.many(1_000, ruWrong: 5, ukWrong: 0), costs: equal),
                                     current: try Self.run(Self.many(1_000, ruWrong: 0, ukWrong: 5), costs: equal), thresholds: Self.job)
        #expect(churned.regressions.isEmpty && churned.checks.first { $0.metric == MetricName.confusionCost }?.pValue == 1)
    }

    /// Each row's mde is planned among the checks its change moves too, not as if it joined the family alone: one
    /// config weighed by costs, so a language's drop moves the config's accuracy and cost (three tests), and the
    /// config's accuracy moves its cost (two).
    @Test func aRowsMdeIsPlannedAmongTheChecksItsChangeMoves() throws {
        let run = try Self.run(Self.many(100, ruWrong: 5, ukWrong: 5), costs: Self.costs)
        let comparison = try Comparison(base: run, current: run, thresholds: .default)
        let language = try #require(comparison.checks.first { $0.metric == MetricName.accuracy && $0.key[.lang] == "uk" })
        let config = try #require(comparison.checks.first { $0.metric == MetricName.accuracy && $0.key[.lang] == nil })
        let share = try #require(comparison.alphaShares["detection"])
        #expect(abs((language.level ?? 0) - share / 3) < 1e-12 && abs((config.level ?? 0) - share / 2) < 1e-12,
                "levels \(language.level ?? -1), \(config.level ?? -1) of \(share)")
    }

    @Test func withoutTheSameMatrixInBothRunsThereIsNoCostCheck() throws {
        let base = try Self.run(Self.predictions(ruWrong: 15, ukWrong: 0), costs: Self.costs)
        let unweighed = try Self.run(Self.predictions(ruWrong: 0, ukWrong: 15), costs: nil)
        #expect(!(try Comparison(base: base, current: unweighed, thresholds: .default)).checks.contains { $0.metric == MetricName.confusionCost })
    }

    @Test func theReportGivesEachConfigsCostWeightedError() throws {
        let report = try #require(try Self.run(Self.predictions(ruWrong: 0, ukWrong: 15), costs: Self.costs).detection)
        #expect(report.confusionCost(config: "c") == 45.0 / 70)
        #expect(report.markdown.contains("cost-weighted error") && report.markdown.contains("| 0.643 |"), "\(report.markdown)")
    }

    @Test(arguments: [
        (#"{"costs": {"uk->ru": -1}}"#, "c.json (costs.uk->ru): must be a cost between 0 and 100, not -1.0"),
        (#"{"costs": {"ukrainian->ru": 3}}"#, "c.json (costs.ukrainian->ru): must be true->predicted with two different primary language subtags, e.g. uk->ru"),
        (#"{"costs": {"uk->uk": 3}}"#, "c.json (costs.uk->uk): must be true->predicted with two different primary language subtags, e.g. uk->ru"),
        (#"{"weights": {}}"#, "c.json: unknown key(s) 'weights'; allowed: schema_version, default, costs"),
    ])
    func aBadMatrixIsRefusedNamingTheKey(json: String, message: String) {
        #expect(throws: ConfigurationError.self) { try StrictJSON.decode(ConfusionCosts.self, from: Data(json.utf8), path: "c.json") }
        do { _ = try StrictJSON.decode(ConfusionCosts.self, from: Data(json.utf8), path: "c.json") } catch { #expect("\(error)" == message) }
    }

    @Test func theCommittedMatrixLoads() throws {
        let costs = try ConfusionCosts.load(PipelineFixture.repository.appendingPathComponent(ConfusionCosts.defaultResource).path)
        #expect(costs.cost(gold: LanguageCode(normalised: "uk"), predicted: LanguageCode(normalised: "ru")) == 3)
        #expect(costs.cost(gold: LanguageCode(normalised: "ru"), predicted: LanguageCode(normalised: "uk")) == 1)
        #expect(costs.cost(gold: LanguageCode(normalised: "en-GB"), predicted: LanguageCode(normalised: "en")) == 0)
    }
}
