import Checks
@testable import Detection
import Foundation
@testable import Generation
import GenerationTestSupport
@testable import Corpus
@testable import Suite
@testable import Comparison
import TestSupport
import Testing

/// Every regressed or improved check names the items that moved, the status's direction first; unchanged
/// checks name none. The JSON, Markdown and HTML read the same `moved` list.
struct MovedItemsTests {
    static func generation(_ base: String, _ current: String) throws -> Comparison {
        try Comparison(base: RunResults(path: base, detection: nil, generation: try GenerationFixtures.report(base)),
                       current: RunResults(path: current, detection: nil, generation: try GenerationFixtures.report(current)), thresholds: .default)
    }

    @Test func detectionListsBrokenThenFixedAndTheReverseFixedFirst() async throws {
        let constrained = try await RunFixtures.detect(constrained: true), open = try await RunFixtures.detect(constrained: false)
        let worse = try Comparison(base: RunFixtures.results(constrained), current: RunFixtures.results(open), thresholds: .default)
        let overall = try #require(worse.checks.first { $0.key == CheckKey([.config: "main"]) }?.moved)
        #expect(overall.prefix(60).map(\.item) == (0..<60).map { String(format: "uk-%03d", $0) })
        #expect(overall.prefix(60).allSatisfy { $0.change == "broken" && $0.detail == "uk → ru (true uk)" })
        #expect(overall.dropFirst(60).count == 20 && overall.dropFirst(60).allSatisfy { $0.change == "fixed" })
        // The per-language check lists its own language's items only.
        let ukrainian = try #require(worse.checks.first { $0.key == CheckKey([.config: "main", .lang: "uk"]) }?.moved)
        #expect(ukrainian.count == 60 && ukrainian.allSatisfy { $0.item.hasPrefix("uk-") })

        let better = try Comparison(base: RunFixtures.results(open), current: RunFixtures.results(constrained), thresholds: .default)
        let improved = try #require(better.checks.first { $0.key == CheckKey([.config: "main"]) })
        #expect(improved.status == .improvement)
        #expect(improved.moved?.prefix(60).allSatisfy { $0.change == "fixed" } == true && improved.movedTotal == 80)
        #expect(better.checks.first { $0.key == CheckKey([.config: "main", .lang: "uk"]) }?.moved?.allSatisfy { $0.change == "fixed" } == true)
    }

    @Test func crisisTaggedDetectionItemsAreCountedNeverListed() throws {
        let uk = LanguageCode(normalised: "uk"), ru = LanguageCode(normalised: "ru")
        let result = { (id: String, tags: [String], predicted: LanguageCode) in
            DetectionResult(itemID: id, lang: uk, tags: tags, length: .one, config: "main", detector: "d", predicted: predicted, confidence: nil)
        }
        let pairs = [(result("uk-1", [], uk), result("uk-1", [], ru)), (result("uk-2", ["crisis"], uk), result("uk-2", ["crisis"], ru)),
                     (result("uk-3", [], ru), result("uk-3", [], uk))]
        var check = MetricCheck(metric: "detection.accuracy", key: CheckKey([.config: "main"]), kind: .detection, polarity: .higherIsBetter, base: 1, current: 0, delta: -1,
                                interval: nil, pValue: 0, threshold: 0.01, n: 3, status: .regression, rule: "")
        check.movedCandidates = .detection(pairs)
        let settled = check.settlingMoved()
        #expect(settled.moved?.map(\.item) == ["uk-1", "uk-3"] && settled.movedTotal == 3)
    }

    /// The streamed join gathers moved items one pair at a time, capped as it goes: it lists and counts
    /// what the in-memory candidates do, past the cap and with crisis items among them.
    @Test func movedItemsGatheredPairByPairEqualTheInMemoryOnes() throws {
        let uk = LanguageCode(normalised: "uk"), ru = LanguageCode(normalised: "ru")
        let result = { (id: String, tags: [String], predicted: LanguageCode) in
            DetectionResult(itemID: id, lang: uk, tags: tags, length: .one, config: "main", detector: "d", predicted: predicted, confidence: nil)
        }
        let pairs = (0..<260).map { i -> (DetectionResult, DetectionResult) in
            let id = String(format: "uk-%03d", i), tags = i % 50 == 7 ? ["crisis"] : []
            return i % 5 == 0 ? (result(id, tags, ru), result(id, tags, uk)) : (result(id, tags, uk), result(id, tags, ru))
        }
        var gathered = MovedCandidates(worse: [], better: [])
        for (base, current) in pairs { gathered.add(base: base, current: current, broken: base.correct) }
        #expect(gathered.worse.count == MovedItem.listed)
        for status in [MetricCheck.Status.regression, .improvement] {
            var check = MetricCheck(metric: "detection.accuracy", key: CheckKey([.config: "main"]), kind: .detection, polarity: .higherIsBetter, base: 1, current: 0, delta: -1,
                                    interval: nil, pValue: 0, threshold: 0.01, n: pairs.count, status: status, rule: "")
            check.movedCandidates = .detection(pairs)
            let reference = check.settlingMoved()
            check.movedCandidates = gathered
            let streamed = check.settlingMoved()
            #expect(streamed.moved == reference.moved && streamed.movedTotal == reference.movedTotal && reference.movedTotal == 260)
        }
    }

    @Test func servedAndFallbackListTheRecordsThatMovedEachWay() throws {
        let worse = try Self.generation("base", "current")
        let fallback = try #require(worse.checks.first { $0.metric == "generation.fallback_rate" && $0.key == CheckKey([.route: "direct", .reason: "timeout"]) })
        #expect(fallback.status == .regression)
        #expect(fallback.moved?.map(\.change) == Array(repeating: "fell back", count: 8))
        #expect(fallback.moved?.first == MovedItem(item: "cp-de-01", repeatIndex: 0, change: "fell back",
                                                   detail: "model, served → fallback (timeout), not served (timeout)"))
        let served = try #require(worse.checks.first { $0.metric == "generation.served_in_own_language" && $0.key == CheckKey([.route: "direct"]) })
        #expect(served.moved?.map(\.item) == fallback.moved?.map(\.item) && served.moved?.allSatisfy { $0.change == "lost" } == true)

        let better = try Self.generation("current", "base")
        let recovered = try #require(better.checks.first { $0.metric == "generation.fallback_rate" && $0.key == CheckKey([.route: "direct", .reason: "timeout"]) })
        #expect(recovered.status == .improvement && recovered.moved?.allSatisfy { $0.change == "recovered" } == true)
        #expect(better.checks.first { $0.metric == "generation.served_in_own_language" && $0.key == CheckKey([.route: "direct"]) }?
            .moved?.allSatisfy { $0.change == "gained" } == true)
    }

    @Test func latencyListsTheItemsBeyondTheThresholdSlowestFirstCapped() throws {
        let worse = try Self.generation("base", "current")
        // The slowest tenth of 48 pivot items is 5 items: too few to reach latency's share of α, and the check says so.
        let tail = try #require(worse.checks.first { $0.metric == MetricName.slowestTenth && $0.key == CheckKey([.route: "pivot"]) })
        #expect(!tail.gating && tail.status == .unchanged && tail.powerNote?.contains("no outcome of its test can reach the level") == true)
        for metric in ["generation.latency"] {
            let check = try #require(worse.checks.first { $0.metric == metric && $0.key == CheckKey([.route: "pivot"]) })
            let moved = try #require(check.moved)
            #expect(check.status == .regression && moved.count == MovedItem.listedRatios && check.movedTotal! >= moved.count)
            let ratios = moved.map { Double($0.detail.dropFirst())! }
            #expect(ratios == ratios.sorted(by: >) && ratios.allSatisfy { $0 > 1 + check.threshold })
            #expect(moved.allSatisfy { $0.change == "slower" })
        }
        let better = try Self.generation("current", "base")
        let faster = try #require(better.checks.first { $0.metric == "generation.latency" && $0.key == CheckKey([.route: "pivot"]) }?.moved)
        let ratios = faster.map { Double($0.detail.dropFirst())! }
        #expect(ratios == ratios.sorted() && ratios.allSatisfy { $0 < 0.9 } && faster.allSatisfy { $0.change == "faster" })
    }

    @Test func unchangedChecksListNothingAndTheJSONRoundTrips() throws {
        let comparison = try Self.generation("base", "current")
        #expect(comparison.checks.filter { $0.status == .unchanged }.allSatisfy { $0.moved == nil && $0.movedTotal == nil })
        #expect(comparison.checks.filter { $0.status != .unchanged }.allSatisfy { !($0.moved ?? []).isEmpty })
        let decoded = try JSONDecoder().decode([MetricCheck].self, from: try JSONEncoder().encode(comparison.checks))
        #expect(decoded.map(\.moved) == comparison.checks.map(\.moved) && decoded.map(\.movedTotal) == comparison.checks.map(\.movedTotal))
    }

    @Test func theComparePageLinksEveryMovedItemToARowOfItsTable() throws {
        let comparison = try Self.generation("base", "current")
        let html = comparison.html
        let listed = comparison.checks.compactMap(\.moved).reduce(0) { $0 + $1.count }
        #expect(listed > 0)
        for index in 0..<listed {
            #expect(html.contains("<a href=\"#moved-\(index)\">") && html.contains("<tr id=\"moved-\(index)\">"))
        }
        #expect(!html.contains("<tr id=\"moved-\(listed)\">"))
        #expect(html.contains("cp-de-01 (repeat 0)") == false, "repeat 0 is not written out")
        #expect(html.contains("<a href=\"#moved-0\">cp-de-01: fell back, model, served → fallback (timeout), not served (timeout)</a>"))
    }
}
