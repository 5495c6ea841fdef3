@testable import Support
import Checks
import Foundation
@testable import Generation
import GenerationTestSupport
@testable import Comparison
@testable import Provenance
import Testing

/// Steadiness judged where it happens: each block of a merged run on its own samples, the blocks against each other
/// by their medians, and collapsed requests per route.
struct SteadinessPerPartTests {
    /// Four steady blocks (each within ×1.3) drifting 7% from one to the next, as a CI job's blocks do minutes apart.
    static func drifting(step: Double = 1.07, wobble: Double = 1.3) -> MachineCalibration {
        let blocks = (0..<4).map { k in
            let level = 400 * pow(step, Double(k))
            return MachineSteadinessTests.calibration(start: [level, level * wobble, level], end: [level, level * 1.1, level])
        }
        return MachineCalibration.merged(blocks)!
    }

    /// Pooled, the samples span ×1.59 (beyond ×1.5) although no block does: the merged run is steady.
    @Test func driftBetweenSteadyBlocksIsNotUnsteadiness() {
        let merged = Self.drifting()
        #expect(merged.parts.count == 4 && merged.samples.allSatisfy { $0.part != nil })
        let consistency = CalibrationConsistency(merged)
        #expect(consistency.spreadRatio! > 1.5 && consistency.isConsistent)
        #expect(abs(consistency.partSpreadRatio! - 1.3) < 1e-9 && abs(consistency.partMedianRatio! - pow(1.07, 3)) < 1e-9)
        #expect(MachineSteadiness(calibration: merged, records: []).isSteady)
    }

    @Test func oneUnsteadyBlockMakesTheMergedRunUnsteady() {
        let merged = Self.drifting(wobble: 1.6)
        let check = MachineSteadiness(calibration: merged, records: [])
        #expect(!check.isSteady && check.reasons[0].contains("at most ×1.60 within one of its 4 parts"))
    }

    @Test func blocksFurtherApartThanTheMarginAreUnsteady() {
        let check = MachineSteadiness(calibration: Self.drifting(step: 1.15), records: [])
        #expect(check.reasons == ["the calibration medians of its 4 parts are ×1.52 apart, beyond ×1.25"])
    }

    /// Merging merged runs keeps every original part apart.
    @Test func mergingMergedCalibrationsKeepsTheirParts() {
        let once = Self.drifting()
        let twice = MachineCalibration.merged([once, once])!
        #expect(twice.parts.count == 8 && twice.parts[4].map(\.ms) == once.parts[0].map(\.ms))
    }

    /// The base fixture's records with the first two timed direct requests of `records` collapsed (0.5 tokens/s) and
    /// the direct route `slower` times as slow.
    static func collapsed(slower: Double = 1, collapses: Int = 2) throws -> (base: GenerationReport, current: GenerationReport) {
        var records = try GenerationFixtures.records("base")
        let direct = records.indices.filter { records[$0].route == .direct && MachineSteadiness.judgedSpeed(records[$0]) != nil }
        for index in direct.prefix(collapses) { records[index].generateTokensPerSecond = 0.5 }
        for index in records.indices where records[index].route == .direct {
            records[index].totalMs *= slower
            records[index].ttftMs = records[index].ttftMs.map { $0 * slower }
            records[index].tpotMs = records[index].tpotMs.map { $0 * slower }
        }
        return (MachineSteadinessTests.report(calibration: MachineSteadinessTests.quiet, records: try GenerationFixtures.records("base")),
                MachineSteadinessTests.report(calibration: MachineSteadinessTests.quiet, records: records))
    }

    static func compare(_ runs: (base: GenerationReport, current: GenerationReport)) throws -> Comparison {
        try Comparison(base: RunResults(path: "a", detection: nil, generation: runs.base),
                       current: RunResults(path: "b", detection: nil, generation: runs.current), thresholds: .default, latency: .sameRunner)
    }

    /// Two collapsed direct requests are left out of the direct route's latency, which is judged on the rest, their rate shown.
    @Test func aRouteWithCollapsesIsJudgedOnItsSteadyRequestsAndItsRateShown() throws {
        let runs = try Self.collapsed()
        #expect(MachineSteadiness(runs.current).isSteady)  // 2 of the run's requests: within its 5%
        let comparison = try Self.compare(runs)
        let direct = try #require(comparison.checks.first { $0.metric == "generation.latency" && $0.key == CheckKey([.route: "direct"]) })
        let all = GenerationComparer.pairs(base: runs.base, current: runs.current, route: .direct).filter(\.bothModel).count
        #expect(direct.n < all && direct.rule.hasSuffix("; 2 collapsed request pair(s) left out"), "\(direct.n) of \(all): \(direct.rule)")
        #expect(comparison.checks.contains { $0.metric == "generation.latency" && $0.key == CheckKey([.route: "pivot"]) })
        let rate = try #require(comparison.checks.first { $0.metric == MetricName.collapsedRequests })
        #expect(rate.key == CheckKey([.route: "direct"]) && rate.base == 0 && rate.current > 0 && rate.rule.hasPrefix("0 collapsed request(s) in base, 2 in current"))
        #expect(comparison.latencyNotJudged == nil)
    }

    /// A ×1.30 slowdown of a route two of whose requests collapsed is red: the collapses no longer exempt its latency.
    @Test func aSlowdownBesideTwoCollapsesIsARegression() throws {
        let comparison = try Self.compare(try Self.collapsed(slower: 1.3))
        #expect(comparison.regressions.contains { $0.metric == "generation.latency" && $0.key == CheckKey([.route: "direct"]) }, "\(comparison.markdown)")
        #expect(comparison.verdict == "regression")
    }

    /// What the compare can see of latency is of a route judged, and names a route left unjudged beside it.
    @Test func theCanSeeLineNamesARouteLeftUnjudged() throws {
        var comparison = try Comparison(base: RunResults(path: "base", detection: nil, generation: try GenerationFixtures.report("base")),
                                        current: RunResults(path: "current", detection: nil, generation: try GenerationFixtures.report("current")),
                                        thresholds: .default)
        comparison.latencyNotJudged = LatencyNotJudged(routes: [("route=direct", "3 of its 4 request pairs collapsed", ["current"])])
        let line = try #require(comparison.visibility.first { $0.contains("latency (") }, "\(comparison.visibility)")
        #expect(line.hasSuffix(" (route=direct not judged: most of its requests collapsed)"), "\(line)")
    }

    /// A route most of whose requests collapsed is not judged, and says so at the top and in latency_not_judged.
    @Test func aRouteMostlyCollapsedIsNamedAsNotJudged() throws {
        let runs = try Self.collapsed(slower: 1.3, collapses: 1000)
        let comparison = try Self.compare((runs.base, runs.current))
        let notJudged = try #require(comparison.latencyNotJudged, "\(comparison.markdown)")
        // Here the run itself is unsteady (every direct request collapsed): named as a whole; a route alone names the route.
        #expect(notJudged.runs == ["current"], "\(notJudged)")
        let routes = GenerationComparer.unjudgedRoutes(base: runs.base, current: runs.current)
        #expect(routes.map(\.key) == ["route=direct"] && routes[0].runs == ["current"] && routes[0].reason.hasSuffix("request pairs collapsed"))
        let note = LatencyNotJudged(routes: routes).note
        #expect(note.hasPrefix("⚠️ latency NOT JUDGED for route=direct (neither passed nor failed): route=direct: "), "\(note)")
        #expect(comparison.markdown.contains("latency NOT JUDGED"), "\(comparison.markdown)")
        #expect(!comparison.checks.contains { $0.metric == "generation.latency" && $0.key == CheckKey([.route: "direct"]) })
    }
}
