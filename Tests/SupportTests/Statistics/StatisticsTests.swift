@testable import Support
import Foundation
import Testing

struct StatisticsTests {
    @Test func wilsonMatchesPublishedValues() {
        // Newcombe (1998), example: 81/263 -> 0.2553 to 0.3662.
        let interval = Statistics.wilson(successes: 81, trials: 263)
        #expect(abs(interval.low - 0.2553) < 0.0005)
        #expect(abs(interval.high - 0.3662) < 0.0005)
        let perfect = Statistics.wilson(successes: 10, trials: 10)
        #expect(perfect.high > 0.99999 && abs(perfect.low - 0.7225) < 0.0005)
    }

    @Test(arguments: [(0, 0, 1.0), (5, 5, 1.0), (0, 6, 0.03125), (1, 9, 0.021484375), (10, 20, 0.09873714)])
    func mcnemarExact(b: Int, c: Int, p: Double) {
        #expect(abs(Statistics.mcnemarExact(b: b, c: c) - p) < 1e-6)
    }

    @Test func mcnemarIsSymmetric() {
        for b in 0...12 { for c in 0...12 { #expect(Statistics.mcnemarExact(b: b, c: c) == Statistics.mcnemarExact(b: c, c: b)) } }
    }

    @Test func quantileType7() {
        let values: [Double] = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
        #expect(Statistics.quantile(values, 0.5) == 5.5)
        #expect(abs(Statistics.quantile(values, 0.95) - 9.55) < 1e-9)
        #expect(Statistics.quantile([3], 0.99) == 3)
    }

    /// The order-statistic interval of a median: for n = 10, ranks 2 and 9 (coverage 97.9%); seed-free, it covers the
    /// true median of a symmetric sample; a p95 of 48 values has no upper end at 95%.
    @Test func orderStatisticIntervalsNeedNoSeed() {
        #expect(Statistics.quantileInterval((1...10).map(Double.init), 0.5) == .init(low: 2, high: 9))
        let values = (1...200).map { Double($0) }
        let a = Statistics.quantileInterval(values, 0.5)!
        #expect(a.low < 100.5 && a.high > 100.5 && a.high - a.low < 40)
        #expect(Statistics.quantileInterval(Array(values.prefix(5)), 0.5) == nil)
        #expect(Statistics.quantileInterval(Array(values.prefix(48)), 0.95) == nil)
        #expect(Statistics.quantileInterval(values, 0.95) != nil)
    }

    /// Coverage at least as stated: 2,000 samples of 15 uniform values, the interval covers the true median 0.5.
    @Test func orderStatisticIntervalsCoverAtLeastTheirConfidence() {
        var generator = SplitMix64(seed: 11)
        var covered = 0
        for _ in 0..<2000 {
            let sample = (0..<15).map { _ in Double(generator.next() % 1_000_000) / 1_000_000 }
            if let ci = Statistics.quantileInterval(sample, 0.5), ci.low <= 0.5, 0.5 <= ci.high { covered += 1 }
        }
        #expect(covered >= 1880, "\(covered) of 2000")  // 96.5% exact for n = 15; 94% leaves room for the draw
    }

    /// The counting shortcut gives exactly what sorting each resample gives, on the same draws.
    @Test func countingBootstrapEqualsNaiveBootstrap() {
        let values: [Double] = (0..<57).map { (i: Int) -> Double in Double((i * 37) % 23) + 0.5 * Double(i % 3) }
        let sorted = values.sorted()
        for q in [0.5, 0.9, 0.95, 0.99] {
            let fast = Statistics.resampledQuantiles(sorted, q, resamples: 200, generator: SplitMix64(seed: 7))
            var generator = SplitMix64(seed: 7)
            var naive: [Double] = []
            for _ in 0..<200 {
                var sample: [Double] = []
                for _ in 0..<sorted.count { sample.append(sorted[Int(generator.next() % UInt64(sorted.count))]) }
                naive.append(Statistics.quantile(sample, q))
            }
            #expect(fast.count == naive.count)
            for (x, y) in zip(fast, naive) { #expect(abs(x - y) < 1e-9 as Double) }
        }
    }

    @Test func pairedBootstrapOfNoChangeContainsZero() {
        let logs = (0..<40).map { sin(Double($0)) * 0.05 }
        let means = Statistics.bootstrapMeans(logs)
        #expect(means.count == 2000 && means == means.sorted())
        #expect(Statistics.bootstrapClusteredMeans([logs]) == means)  // one block: items only
        #expect(Statistics.quantile(sorted: means, 0.025) < 0 && Statistics.quantile(sorted: means, 0.975) > 0)
        #expect(Statistics.bootstrapPValue(means, beyond: log(1.1), above: true) == 1)  // no evidence of a 10% slowdown
        #expect(Statistics.bootstrapPValue(means.map { $0 + log(1.5) }, beyond: log(1.1), above: true) == 1.0 / 2001)
    }
}
