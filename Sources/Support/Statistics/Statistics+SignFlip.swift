import Foundation

/// Exact paired tests that need no normal approximation: they hold their size at any n, which the
/// z-statistic of a handful of discordant items does not (4 one-way items: z gives p = 0.046, the exact
/// sign-flip distribution 0.125).
extension Statistics {
    /// Above this many nonzero values the sign-flip distribution is sampled (seeded) rather than enumerated.
    package static let signFlipEnumerationLimit = 20

    /// One-sided sign-flip (randomization) p-value that the mean of `values` lies above `bound` (`above`)
    /// or below it: under the null each value − bound is as likely negative as positive, so every one of the
    /// 2ᵏ sign patterns of the k shifted values is equally likely, and p is the share whose sum reaches the
    /// observed one. Enumerated exactly up to `signFlipEnumerationLimit` values, then sampled with `draws`
    /// seeded patterns ((hits + 1)/(draws + 1), still a valid p). The smallest p it can give is 2⁻ᵏ.
    /// `enumerateUpTo` lowers the enumeration limit where many p-values are computed (an interval's bisection).
    /// `stopAtHits` samples sequentially (Besag and Clifford 1991): drawing stops once that many patterns reached the
    /// observed sum, p = hits/drawn, still a valid p-value, so a p far from any level costs a few dozen draws.
    package static func signFlipP(_ values: [Double], beyond bound: Double, above: Bool, draws: Int = 20_000, seed: UInt64 = 42,
                                 enumerateUpTo limit: Int = signFlipEnumerationLimit, stopAtHits: Int? = nil) -> Double {
        let shifted = values.map { above ? $0 - bound : bound - $0 }
        let observed = shifted.reduce(0, +)
        let magnitudes = shifted.map(abs).filter { $0 > 0 }
        guard !magnitudes.isEmpty else { return observed > 0 ? 0.5 : 1 }
        // A tolerance for the float sums of equal patterns, relative to the largest magnitude.
        let tolerance = 1e-9 * (magnitudes.max() ?? 1)
        if magnitudes.count <= min(limit, signFlipEnumerationLimit) {
            var hits = 0
            let patterns = 1 << magnitudes.count
            for pattern in 0..<patterns {
                var sum = 0.0
                for (bit, value) in magnitudes.enumerated() { sum += pattern & (1 << bit) != 0 ? value : -value }
                if sum >= observed - tolerance { hits += 1 }
            }
            return Double(hits) / Double(patterns)
        }
        var generator = SplitMix64(seed: seed)
        var hits = 0
        for drawn in 1...max(1, draws) {
            var sum = 0.0
            var bits = generator.next(), used = 0
            for value in magnitudes {
                if used == 64 { bits = generator.next(); used = 0 }
                sum += bits & 1 != 0 ? value : -value
                bits >>= 1
                used += 1
            }
            if sum >= observed - tolerance { hits += 1 }
            if let stopAtHits, hits >= stopAtHits { return Double(hits) / Double(drawn) }
        }
        return Double(hits + 1) / Double(draws + 1)
    }

    /// The smallest one-sided p-value `signFlipP` can give over `count` values: 2⁻ᵏ (all of one sign).
    package static func signFlipSmallestP(count: Int) -> Double {
        count <= 0 ? 1 : pow(0.5, Double(min(count, 1000)))
    }

    /// McNemar's test for repeated pairs clustered by unit, exact: per unit dᵢ = bᵢ − cᵢ, and the
    /// two-sided sign-flip distribution of Σdᵢ (every unit's imbalance as likely in either direction under
    /// no change), computed exactly over the integer sums. With one pair per unit it is the exact McNemar
    /// test. `spread` = √Σdᵢ², the standard error of Σdᵢ (for the design effect).
    package static func mcnemarClustered(_ units: [(b: Int, c: Int)]) -> (p: Double, spread: Double) {
        let d = units.map { $0.b - $0.c }
        let squares = d.map { Double($0 * $0) }.reduce(0, +)
        guard squares > 0 else { return (1, 0) }
        let observed = abs(d.reduce(0, +))
        let tail = integerSignFlipTail(d.map(abs).filter { $0 > 0 }, atLeast: observed)
        return (min(1, 2 * tail), squares.squareRoot())
    }

    /// One-sided exact clustered McNemar: the chance under no change that Σ(bᵢ − cᵢ) reaches its observed
    /// value or more (regression in the direction of b).
    package static func mcnemarClusteredOneSided(_ units: [(b: Int, c: Int)]) -> Double {
        let d = units.map { $0.b - $0.c }
        let magnitudes = d.map(abs).filter { $0 > 0 }
        guard !magnitudes.isEmpty else { return 1 }
        return integerSignFlipTail(magnitudes, atLeast: d.reduce(0, +))
    }

    /// One-sided exact McNemar: P(X ≥ worse), X ~ Bin(worse + better, 1/2).
    package static func mcnemarExactOneSided(worse: Int, better: Int) -> Double {
        let n = worse + better
        guard n > 0, worse > 0 else { return 1 }
        // Σ_{i ≥ worse} C(n, i)/2ⁿ, summed in logs from the far end so that large n neither overflows nor loses the tail.
        var logCoefficient = 0.0  // log C(n, n)
        var tail = 0.0
        let logHalfN = Double(n) * log(0.5)
        for i in stride(from: n, through: worse, by: -1) {
            if i < n { logCoefficient += log(Double(i + 1)) - log(Double(n - i)) }
            tail += exp(logCoefficient + logHalfN)
        }
        return min(1, tail)
    }

    /// P(Σ sᵢ·mᵢ ≥ threshold) over independent fair signs sᵢ = ±1, by dynamic programming over the sums
    /// (exact: the magnitudes are small integers — discordant records per item).
    static func integerSignFlipTail(_ magnitudes: [Int], atLeast threshold: Int) -> Double {
        let total = magnitudes.reduce(0, +)
        guard total > 0 else { return threshold <= 0 ? 1 : 0 }
        // probabilities[s + total]: chance the signed sum so far is s.
        var probabilities = [Double](repeating: 0, count: 2 * total + 1)
        probabilities[total] = 1
        for m in magnitudes {
            var next = [Double](repeating: 0, count: probabilities.count)
            for (index, p) in probabilities.enumerated() where p > 0 {
                if index + m < next.count { next[index + m] += p / 2 }
                if index - m >= 0 { next[index - m] += p / 2 }
            }
            probabilities = next
        }
        let start = max(0, min(probabilities.count, threshold + total))
        return min(1, probabilities[start...].reduce(0, +))
    }
}
