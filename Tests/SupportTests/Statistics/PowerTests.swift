@testable import Support
import Foundation
import TestSupport
import Testing

/// Minimum detectable effects and the clustered McNemar test, against values computed by hand
/// (z from Python's `statistics.NormalDist().inv_cdf`).
struct PowerTests {
    @Test(arguments: [(0.975, 1.959963985), (0.8, 0.841621234), (0.95, 1.644853627), (0.999, 3.090232306), (0.005, -2.575829304)])
    func normalQuantile(p: Double, z: Double) {
        #expect(abs(Statistics.normalQuantile(p) - z) < 1e-8)
    }

    /// exp((1.644854 + 0.841621)·0.04) − 1 = 0.104573: beyond a ×1.10 margin a true ×1.215 is seen.
    @Test func logRatioMDE() {
        #expect(abs(Statistics.minimumDetectableEffect(.logRatio(standardError: 0.04), alpha: 0.05) - 0.104573) < 1e-6)
    }

    /// Without churn the exact test needs ⌈log₂(1/α)⌉ one-way units: 5 at α 0.05 (2⁻⁵ = 0.031), 11 at the 0.00069 a
    /// per-language check is tested at in the CI job; two repeats per item (deff 2) over 90 records count as 45 items.
    @Test func pairedMDEWithoutChurnIsExact() {
        #expect(Statistics.minimumDetectableEffect(.paired(churn: 0, n: 45, designEffect: 1), alpha: 0.05) == 5.0 / 45)
        #expect(Statistics.minimumDetectableEffect(.paired(churn: 0, n: 45, designEffect: 1), alpha: 0.00069) == 11.0 / 45)
        #expect(Statistics.minimumDetectableEffect(.paired(churn: 0, n: 90, designEffect: 2), alpha: 0.05) == 5.0 / 45)
        #expect(Statistics.minimumDetectableEffect(.paired(churn: 0, n: 8, designEffect: 1), alpha: 0.001) == 1)  // 8 items: 2⁻⁸ > 0.001
        #expect(Statistics.minimumDetectableEffect(.exact, alpha: 0.05) == 0)
    }

    /// With churn, the mde is calibrated by simulation under the alternative (a seeded re-implementation, not the
    /// code's sums): d·n units moved one way on top of Poisson churn both ways is caught at least 78% of the time,
    /// one unit fewer less than 82%.
    @Test(arguments: [(0.1, 200, 0.05), (0.04, 2072, 0.00069), (0.2, 45, 0.0083)])
    func pairedMDEWithChurnHasEightyPercentPower(churn: Double, n: Int, alpha: Double) {
        let mde = Statistics.minimumDetectableEffect(.paired(churn: churn, n: n, designEffect: 1), alpha: alpha)
        let moved = Int((mde * Double(n)).rounded())
        var generator = SeededGenerator(seed: 7)
        func poisson(_ mean: Double) -> Int {
            var k = 0, product = Double.random(in: 0..<1, using: &generator)
            let limit = exp(-mean)
            while product > limit { k += 1; product *= Double.random(in: 0..<1, using: &generator) }
            return k
        }
        func power(_ units: Int) -> Double {
            let each = churn * Double(n) / 2, trials = 20_000
            let caught = (0..<trials).filter { _ in Statistics.mcnemarExactOneSided(worse: units + poisson(each), better: poisson(each)) <= alpha }.count
            return Double(caught) / Double(trials)
        }
        #expect(power(moved) >= 0.78, "mde \(mde): \(moved) units")
        #expect(power(moved - 1) < 0.82, "mde \(mde): \(moved - 1) units")
    }

    /// The clustered test is exact: 8 one-way records as 8 items give the exact McNemar p = 2·2⁻⁸; the same 8 records as
    /// 4 items × 2 repeats give 2·2⁻⁴ = 0.125 (the z-statistic said 0.0455: a size of 12.5% at nominal 5%).
    @Test func clusteredMcNemarCountsAnItemsRepeatsOnce() {
        let single = Statistics.mcnemarClustered(Array(repeating: (b: 1, c: 0), count: 8))
        #expect(single.p == 2.0 / 256 && abs(single.spread - 8.0.squareRoot()) < 1e-12)
        #expect(abs(single.p - Statistics.mcnemarExact(b: 8, c: 0)) < 1e-15)
        let repeated = Statistics.mcnemarClustered(Array(repeating: (b: 2, c: 0), count: 4))
        #expect(repeated.p == 0.125)
        #expect(Statistics.mcnemarClusteredOneSided(Array(repeating: (b: 2, c: 0), count: 4)) == 0.0625)
        #expect(Statistics.mcnemarClusteredOneSided(Array(repeating: (b: 0, c: 2), count: 4)) == 1)
        #expect(Statistics.mcnemarClustered([(b: 1, c: 1), (b: 0, c: 0)]).p == 1)
    }

    /// One-sided exact McNemar is the binomial tail, even where 2ⁿ overflows.
    @Test(arguments: [(8, 0, 1.0 / 256), (5, 3, 0.36328125), (0, 4, 1.0), (3, 3, 0.65625)])
    func oneSidedMcNemarIsTheBinomialTail(worse: Int, better: Int, p: Double) {
        #expect(abs(Statistics.mcnemarExactOneSided(worse: worse, better: better) - p) < 1e-12)
    }

    @Test func oneSidedMcNemarHoldsForLargeCounts() {
        let p = Statistics.mcnemarExactOneSided(worse: 2_100, better: 1_900)
        #expect(p > 0.0007 && p < 0.0010)  // z = 200/√4000 = 3.16: normal tail 0.00078
    }

    /// The sign-flip test enumerates every sign pattern: 3 values all above the bound give 1/8; values that
    /// straddle it give the share of patterns whose sum reaches the observed one.
    @Test func signFlipIsExactForFewValues() {
        #expect(Statistics.signFlipP([1, 2, 3], beyond: 0, above: true) == 0.125)
        #expect(Statistics.signFlipP([1, 2, 3], beyond: 0, above: false) == 1)
        #expect(Statistics.signFlipP([3, -1], beyond: 0, above: true) == 0.5)  // +3−1 and +3+1 of the four reach 2
        #expect(Statistics.signFlipP([2, 2, 2], beyond: 1, above: true) == 0.125)
        #expect(Statistics.signFlipSmallestP(count: 10) == 1.0 / 1024)
    }

    /// Size at the level it is used: symmetric noise around the bound, 2,000 seeded draws of 10 values each,
    /// rejects at 5% no more than 5% of the time (and, being exact, not far below it either); sampled beyond
    /// 20 values, too.
    @Test(.needs(.simulation), arguments: [10, 30]) func signFlipHoldsItsSize(count: Int) {
        var generator = SplitMix64(seed: 7)
        var rejections = 0
        let draws = count > 20 ? 300 : 2000
        for _ in 0..<draws {
            let values = (0..<count).map { _ in Double(generator.next() % 10_000) / 10_000 - 0.5 }
            if Statistics.signFlipP(values, beyond: 0, above: true, draws: 2000) <= 0.05 { rejections += 1 }
        }
        let rate = Statistics.wilson(successes: rejections, trials: draws)
        #expect(rate.low <= 0.05 && rate.high >= 0.03, "\(rejections) of \(draws)")
    }

    /// Student's t against published values (scipy.stats.t).
    @Test(arguments: [(2.353363, 3.0, 0.95), (1.833113, 9.0, 0.95), (-2.353363, 3.0, 0.05), (0.0, 5.0, 0.5), (12.706205, 1.0, 0.975)])
    func studentTMatchesItsTable(t: Double, degrees: Double, p: Double) {
        #expect(abs(Statistics.studentTCDF(t, degrees: degrees) - p) < 1e-6)
        #expect(abs(Statistics.studentTQuantile(p, degrees: degrees) - t) < 1e-5)
    }
}

/// SplitMix64: a small seeded generator, so the simulations repeat exactly.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
