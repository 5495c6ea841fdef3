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

    /// Two collapsed direct requests leave the direct route's latency out, its collapse rate shown; the pivot is judged.
    @Test func aRouteWithCollapsesHasItsLatencyLeftOutAndItsRateShown() throws {
        var records = try GenerationFixtures.records("base")
        let direct = records.indices.filter { records[$0].route == .direct && MachineSteadiness.judgedSpeed(records[$0]) != nil }
        for index in direct.prefix(2) { records[index].generateTokensPerSecond = 0.5 }
        let base = MachineSteadinessTests.report(calibration: MachineSteadinessTests.quiet, records: try GenerationFixtures.records("base"))
        let current = MachineSteadinessTests.report(calibration: MachineSteadinessTests.quiet, records: records)
        #expect(MachineSteadiness(current).isSteady)  // 2 of the run's requests: within its 5%
        let comparison = try Comparison(base: RunResults(path: "a", detection: nil, generation: base),
                                        current: RunResults(path: "b", detection: nil, generation: current), thresholds: .default, latency: .sameRunner)
        #expect(!comparison.checks.contains { $0.metric == "generation.latency" && $0.key == CheckKey([.route: "direct"]) })
        #expect(comparison.checks.contains { $0.metric == "generation.latency" && $0.key == CheckKey([.route: "pivot"]) })
        let rate = try #require(comparison.checks.first { $0.metric == MetricName.collapsedRequests })
        #expect(rate.key == CheckKey([.route: "direct"]) && rate.base == 0 && rate.current > 0 && rate.rule.hasPrefix("0 collapsed request(s) in base, 2 in current"))
    }
}
