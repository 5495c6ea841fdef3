import Foundation

extension Statistics {
    /// Pools up to this size are counted exactly; larger ones use the normal approximation.
    package static let permutationExactLimit = 300

    /// One-sided p of a two-group permutation test on a sum: the chance that `size` values drawn without replacement
    /// from `pool` sum to at least `observed`. Exact (the draws counted per distinct value) for pools of up to
    /// `permutationExactLimit` values; above, the normal approximation of a sum drawn without replacement.
    package static func permutationSumP(pool: [Double], size: Int, observed: Double) -> Double {
        guard size > 0, size < pool.count else { return 1 }  // one group: every draw is the observed one
        if pool.count > permutationExactLimit {
            let mean = Statistics.mean(pool), n = Double(pool.count), k = Double(size)
            let variance = pool.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / n * k * (n - k) / (n - 1)
            guard variance > 0 else { return 1 }
            return 1 - normalCDF((observed - k * mean) / variance.squareRoot())
        }
        let distribution = sumDistribution(pool: pool, size: size)
        let bound = key(observed)
        return distribution.filter { $0.key >= bound }.values.reduce(0, +)
    }

    /// The smallest p `permutationSumP` can give for a group of `size` from `pool`: the chance of the largest sum.
    package static func permutationSmallestP(pool: [Double], size: Int) -> Double {
        guard size > 0, size < pool.count else { return 1 }
        if pool.count > permutationExactLimit {
            return permutationSumP(pool: pool, size: size, observed: pool.sorted(by: >).prefix(size).reduce(0, +))
        }
        return sumDistribution(pool: pool, size: size).max { $0.key < $1.key }?.value ?? 1
    }

    /// A sum as an exact key (values are costs and scores with at most six decimals).
    private static func key(_ value: Double) -> Int { Int((value * 1_000_000).rounded()) }

    /// The distribution of the sum of `size` values drawn without replacement from `pool`, by sum key: the draws
    /// counted value by value (C(m, t) ways to take t of a value held m times), over C(N, size).
    private static func sumDistribution(pool: [Double], size: Int) -> [Int: Double] {
        var classes: [Int: Int] = [:]
        for value in pool { classes[key(value), default: 0] += 1 }
        var states: [Int: [Int: Double]] = [0: [0: 1]]  // values taken → sum key → ways
        for (value, count) in classes.sorted(by: { $0.key < $1.key }) {
            var next: [Int: [Int: Double]] = [:]
            for (taken, sums) in states {
                for take in 0...min(count, size - taken) {
                    let ways = binomial(count, take)
                    for (sum, w) in sums { next[taken + take, default: [:]][sum + take * value, default: 0] += w * ways }
                }
            }
            states = next
        }
        let total = binomial(pool.count, size)
        return (states[size] ?? [:]).mapValues { $0 / total }
    }

    /// C(n, k) as a Double (exact well past the pools counted here).
    private static func binomial(_ n: Int, _ k: Int) -> Double {
        guard k >= 0, k <= n else { return 0 }
        var out = 1.0
        for i in 0..<min(k, n - k) { out = out * Double(n - i) / Double(i + 1) }
        return out
    }
}
