@testable import Support
import Checks
import Foundation
@testable import Generation
@testable import Comparison
import TestSupport
import Testing

/// The same-runner latency interval under drift between blocks: a CI job measures base and candidate block by block,
/// and the machine may drift between the two sides of a block (σ 0.07 in log, about 7%). With four blocks a two-level
/// bootstrap understates how far their mean can wander; Student's t on the block means holds its level.
@Suite(.needs(.simulation))
struct BlockDriftTests {
    /// One simulated A/B at a true ratio of exactly the threshold (×1.10): 93 items in 4 blocks, each block's items
    /// shifted by the block's drift, each item by its own noise (σ 0.08).
    static func blocks(seed: UInt64, count: Int = 4) -> [[Double]] {
        var generator = SplitMix64(seed: seed)
        let sizes = (0..<count).map { 93 / count + ($0 < 93 % count ? 1 : 0) }
        return sizes.map { size in
            let drift = 0.07 * Statistics.standardNormal(&generator)
            return (0..<size).map { _ in log(1.1) + drift + 0.08 * Statistics.standardNormal(&generator) }
        }
    }

    @Test func atTheThresholdStudentsTRejectsNoMoreThanItsLevel() {
        let runs = 2000
        var t = 0, bootstrap = 0
        for seed in 0..<runs {
            let blocks = Self.blocks(seed: UInt64(seed))
            var check = MetricCheck(metric: "generation.latency", key: CheckKey([.route: "direct"]), kind: .latency, polarity: .lowerIsBetter, base: 1, current: 1, delta: 0,
                                    interval: nil, pValue: nil, threshold: 0.1, n: 93, status: .unchanged, rule: "")
            GenerationComparer.judgeBlockMeans(&check, means: blocks.map(Statistics.mean), spread: .init(low: 1, high: 1), threshold: 0.1)
            if check.regressionP < 0.05 { t += 1 }
            GenerationComparer.judgeLogRatio(&check, boot: Statistics.bootstrapClusteredMeans(blocks, resamples: 200, seed: UInt64(seed)),
                                             spread: .init(low: 1, high: 1), threshold: 0.1)
            if check.regressionP < 0.05 { bootstrap += 1 }
        }
        let (rate, old) = (Statistics.wilson(successes: t, trials: runs), Statistics.wilson(successes: bootstrap, trials: runs))
        print(String(format: "4 blocks at ×1.10, drift σ 0.07: Student's t rejected %d of %d (%.1f–%.1f%%), two-level bootstrap %d (%.1f–%.1f%%)",
                     t, runs, rate.low * 100, rate.high * 100, bootstrap, old.low * 100, old.high * 100))
        #expect(rate.low <= 0.05)
        #expect(bootstrap > t)
    }

    /// Every block 1.5× slower is a regression on four block means; two of four blocks 1.6× slower is drift, not a change.
    @Test func aShiftInEveryBlockStandsOutFromDrift() {
        var check = MetricCheck(metric: "generation.latency", key: CheckKey([.route: "direct"]), kind: .latency, polarity: .lowerIsBetter, base: 1, current: 1, delta: 0,
                                interval: nil, pValue: nil, threshold: 0.1, n: 93, status: .unchanged, rule: "")
        GenerationComparer.judgeBlockMeans(&check, means: [log(1.52), log(1.47), log(1.5), log(1.49)], spread: .init(low: 1, high: 1), threshold: 0.1)
        #expect(check.regressionP < 0.001)
        GenerationComparer.judgeBlockMeans(&check, means: [log(1.6), log(1.6), 0, 0], spread: .init(low: 1, high: 1), threshold: 0.1)
        #expect(check.regressionP > 0.05)
    }
}
