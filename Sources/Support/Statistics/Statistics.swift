import Foundation

/// The statistics LangBench's verdicts rest on. Each function names its method; all are exact or
/// standard textbook forms, tested against published values.
public enum Statistics {
    /// A two-sided interval.
    public struct Interval: Sendable, Hashable, Codable {
        package var low: Double
        package var high: Double
        package init(low: Double, high: Double) {
            self.low = low
            self.high = high
        }
    }

    /// No interval is computed or printed from fewer observations (a bootstrap of 3 values is their range).
    package static let minimumForInterval = 10

    /// Wilson score interval for a binomial proportion (95% with z = 1.959964).
    package static func wilson(successes: Int, trials: Int, z: Double = 1.959964) -> Interval {
        guard trials > 0 else { return Interval(low: 0, high: 1) }
        let n = Double(trials), p = Double(successes) / n
        let denominator = 1 + z * z / n
        let centre = (p + z * z / (2 * n)) / denominator
        let margin = z * ((p * (1 - p) / n + z * z / (4 * n * n)).squareRoot()) / denominator
        return Interval(low: max(0, centre - margin), high: min(1, centre + margin))
    }

    /// McNemar's exact test on paired outcomes: `b` items right only in A, `c` right only in B.
    /// Two-sided p = min(1, 2 · P(X ≤ min(b, c))) with X ~ Binomial(b + c, ½).
    package static func mcnemarExact(b: Int, c: Int) -> Double {
        let n = b + c
        guard n > 0 else { return 1 }
        let k = min(b, c)
        var logCoefficient = 0.0  // log C(n, 0)
        var cumulative = 0.0
        let logHalfN = Double(n) * log(0.5)
        for i in 0...k {
            if i > 0 { logCoefficient += log(Double(n - i + 1)) - log(Double(i)) }
            cumulative += exp(logCoefficient + logHalfN)
        }
        return min(1, 2 * cumulative)
    }

    /// The q-quantile by linear interpolation between closest ranks (type 7, as NumPy's default).
    package static func quantile(_ values: [Double], _ q: Double) -> Double {
        Quantile.of(values, q)
    }

    package static func quantile(sorted: [Double], _ q: Double) -> Double {
        Quantile.of(sorted: sorted, q)
    }

    package static func mean(_ values: [Double]) -> Double {
        values.isEmpty ? .nan : values.reduce(0, +) / Double(values.count)
    }

    /// Bootstrap 95% interval of quantile(current) / quantile(base) for two independent samples — the
    /// calibration requests of two runs; paired data goes through `bootstrapMeans` of log-ratios instead.
    package static func bootstrapQuantileRatio(base: [Double], current: [Double], _ q: Double, resamples: Int = 2000, seed: UInt64 = 42) -> Interval {
        guard !base.isEmpty, !current.isEmpty else { return Interval(low: .nan, high: .nan) }
        let a = resampledQuantiles(base.sorted(), q, resamples: resamples, generator: SplitMix64(seed: seed))
        let b = resampledQuantiles(current.sorted(), q, resamples: resamples, generator: SplitMix64(seed: seed &+ 1))
        let ratios = zip(a, b).compactMap { $0 > 0 ? $1 / $0 : nil }.sorted()
        guard !ratios.isEmpty else { return Interval(low: .nan, high: .nan) }
        return Interval(low: quantile(sorted: ratios, 0.025), high: quantile(sorted: ratios, 0.975))
    }

    /// The q-quantile of each of `resamples` bootstrap resamples of `sorted`, in resample order.
    ///
    /// Resampling a sorted sample is drawing indices, and a resample's order statistics are the
    /// order statistics of the drawn indices, so each resample is a counting pass: O(n), no sort.
    static func resampledQuantiles(_ sorted: [Double], _ q: Double, resamples: Int, generator: SplitMix64) -> [Double] {
        let n = sorted.count
        guard n > 1 else { return Array(repeating: sorted.first ?? .nan, count: resamples) }
        var generator = generator
        let position = q * Double(n - 1)
        let lowerRank = Int(position.rounded(.down)), upperRank = min(lowerRank + 1, n - 1)
        let fraction = position - Double(lowerRank)
        var counts = [Int](repeating: 0, count: n)
        var estimates: [Double] = []
        estimates.reserveCapacity(resamples)
        for _ in 0..<resamples {
            for i in 0..<n { counts[i] = 0 }
            for _ in 0..<n { counts[Int(generator.next() % UInt64(n))] += 1 }
            var cumulative = 0, lower = 0.0, upper = 0.0, foundLower = false
            for i in 0..<n where counts[i] > 0 {
                cumulative += counts[i]
                if !foundLower && cumulative > lowerRank { lower = sorted[i]; foundLower = true }
                if cumulative > upperRank { upper = sorted[i]; break }
            }
            estimates.append(lower + (upper - lower) * fraction)
        }
        return estimates
    }
}

/// A small, fast, seedable generator (Steele et al.'s SplitMix64) for reproducible resampling.
package struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64
    package init(seed: UInt64) { state = seed }
    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
