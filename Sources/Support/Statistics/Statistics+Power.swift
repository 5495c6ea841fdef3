import Foundation
import Synchronization

/// Minimum detectable effects: the change a check flags with 80% power at its n, from the check's own
/// spread. Normal approximations throughout (a planning figure, not a test).
extension Statistics {
    /// The power every minimum detectable effect is computed for.
    package static let power = 0.8

    /// What a check's minimum detectable effect is computed from.
    package enum PowerBasis: Sendable, Hashable {
        /// A one-sided test of a log-ratio against the threshold's margin; `standardError` is the standard
        /// deviation of its bootstrap distribution.
        case logRatio(standardError: Double)
        /// The same test on the mean of a few block means, judged by Student's t with `blocks` − 1 degrees of freedom.
        case blockMeans(standardError: Double, blocks: Int)
        /// An exact sign-flip test of `count` log-ratios against the threshold's margin, each with noise `spread`.
        case signFlip(spread: Double, count: Int)
        /// An exact sign-flip test of the mean of `count` paired differences against no change (a score's points),
        /// each difference with noise `spread`.
        case signFlipDifference(spread: Double, count: Int)
        /// A one-sided paired test of a difference in proportions (McNemar) over `n` records: `churn` is the
        /// discordance a run without the change shows (2·min(b, c)/n, records that moved both ways), and
        /// `designEffect` the variance inflation of repeats clustered by item (1 without repeats).
        case paired(churn: Double, n: Int, designEffect: Double)
        /// Exact counts: no sampling noise, any change past the threshold is seen.
        case exact
    }

    /// Minimum detectable effect of a check tested at level `alpha` (the level its p-value must reach):
    /// - `.logRatio`: exp((z₁₋α + z₀.₈)·SE) − 1, the relative distance *beyond the threshold's margin*
    ///   (a true ratio of (1 + threshold)·(1 + mde) is flagged with 80% power);
    /// - `.paired`: the drop d from no change that the exact one-sided McNemar test reaches `alpha` for with 80%
    ///   probability, under the alternative (`pairedMinimumDetectableEffect`): without churn ⌈log₂(1/α)⌉/n;
    /// - `.signFlipDifference`: the shift of the mean difference, in the values' units, at which the exact sign-flip test
    ///   reaches `alpha` with 80% probability (`signFlipShift` × spread);
    /// - `.exact`: 0.
    package static func minimumDetectableEffect(_ basis: PowerBasis, alpha: Double) -> Double {
        switch basis {
        case .exact:
            return 0
        case .logRatio(let se):
            return exp((normalQuantile(1 - alpha) + normalQuantile(power)) * se) - 1
        case .blockMeans(let se, let blocks):
            // A few blocks' standard deviation falls short of the spread it estimates (E[s] = c₄·σ): planned from σ.
            let degrees = Double(max(1, blocks - 1))
            let c4 = (2 / degrees).squareRoot() * exp(lgamma((degrees + 1) / 2) - lgamma(degrees / 2))
            return exp(noncentralTShift(critical: studentTQuantile(1 - alpha, degrees: degrees), degrees: degrees) * se / c4) - 1
        case .paired(let churn, let n, let designEffect):
            return pairedMinimumDetectableEffect(churn: churn, n: n, designEffect: designEffect, alpha: alpha)
        case .signFlip(let spread, let count):
            return signFlipMinimumDetectableEffect(spread: spread, count: count, alpha: alpha)
        case .signFlipDifference(let spread, let count):
            guard count > 1, alpha > 0, signFlipSmallestP(count: count) <= alpha else { return .infinity }
            return signFlipShift(count: count, alpha: alpha) * spread
        }
    }

    /// The shift δ (in standard errors) at which Student's t with `degrees` degrees of freedom exceeds `critical` with 80%
    /// probability: the noncentral t's power, P(Z + δ > c·√(V/ν)) over V ~ χ²(ν), integrated numerically. The sum of the two
    /// quantiles, t₁₋α + t₀.₈, falls short at a few degrees of freedom and a small α (69–72% power at 11, α ≈ 0.0006).
    static func noncentralTShift(critical: Double, degrees: Double) -> Double {
        // χ²(ν) density on a grid wide enough to hold all but a negligible tail.
        let top = degrees + 12 * (2 * degrees).squareRoot() + 20, steps = 600
        let width = top / Double(steps)
        let logNormaliser = (degrees / 2) * log(2) + lgamma(degrees / 2)
        let grid = (1...steps).map { step -> (root: Double, weight: Double) in
            let v = (Double(step) - 0.5) * width
            return ((v / degrees).squareRoot(), exp((degrees / 2 - 1) * log(v) - v / 2 - logNormaliser) * width)
        }
        func reached(_ shift: Double) -> Double {
            grid.reduce(0) { $0 + $1.weight * normalCDF(shift - critical * $1.root) }
        }
        var (low, high) = (0.0, critical + 10)
        for _ in 0..<50 {
            let middle = (low + high) / 2
            if reached(middle) >= power { high = middle } else { low = middle }
        }
        return high
    }

    /// The sign-flip check's mde under the alternative: the shift beyond the margin, in units of each value's noise
    /// `spread`, at which the exact test of `count` normal values reaches `alpha` with 80% probability
    /// (`signFlipShift`). Infinite when the test cannot reach `alpha` at all (2⁻ᵏ above it).
    static func signFlipMinimumDetectableEffect(spread: Double, count: Int, alpha: Double) -> Double {
        guard count > 1, alpha > 0, signFlipSmallestP(count: count) <= alpha else { return .infinity }
        guard spread > 0 else { return 0 }
        return exp(signFlipShift(count: count, alpha: alpha) * spread) - 1
    }

    /// Shifts already planned, by count and level (three significant digits): a compare plans the same few many times.
    private static let plannedShifts = Mutex<[String: Double]>([:])

    /// The shift δ (in units of the values' noise) at which the exact one-sided sign-flip test of `count` values drawn
    /// from N(δ, 1) reaches `alpha` 80% of the time, simulated (400 seeded samples, the same draws at every δ, so power
    /// only grows with δ). Up to 12 values the test is enumerated as the check runs it; beyond, its normal approximation
    /// (the self-normalised sum, i.e. Student's t past z·√((k − 1)/(k − z²))) is close, and planned from the noncentral t.
    static func signFlipShift(count: Int, alpha: Double) -> Double {
        let key = "\(count) " + String(format: "%.3g", alpha)
        if let known = plannedShifts.withLock({ $0[key] }) { return known }
        let shift: Double
        if count > 12 {
            let k = Double(count), z = normalQuantile(1 - alpha)
            shift = z * z < k ? noncentralTShift(critical: z * ((k - 1) / (k - z * z)).squareRoot(), degrees: k - 1) / k.squareRoot() : .infinity
        } else {
            var generator = SplitMix64(seed: 7)
            let draws = (0..<400).map { _ in (0..<count).map { _ in standardNormal(&generator) } }
            func reached(_ delta: Double) -> Double {
                Double(draws.filter { signFlipP($0.map { $0 + delta }, beyond: 0, above: true) <= alpha }.count) / Double(draws.count)
            }
            var (low, high) = (0.0, 12.0)
            for _ in 0..<14 {
                let middle = (low + high) / 2
                if reached(middle) >= power { high = middle } else { low = middle }
            }
            shift = high
        }
        plannedShifts.withLock { $0[key] = shift }
        return shift
    }

    /// One standard normal draw (Box–Muller).
    static func standardNormal(_ generator: inout SplitMix64) -> Double {
        let u = Double(generator.next() % 1_000_000 + 1) / 1_000_001, v = Double(generator.next() % 1_000_000) / 1_000_000
        return (-2 * log(u)).squareRoot() * cos(2 * .pi * v)
    }

    /// The paired check's mde computed under the alternative with the exact test it runs: a true drop d moves d·n units
    /// one way on top of the background churn, which moves units both ways at random (Poisson, churn·n/2 each way);
    /// the mde is the smallest d whose one-sided exact McNemar p reaches `alpha` with 80% probability. Without churn it
    /// is exact: ⌈log₂(1/α)⌉ units of n. Repeats clustered by item count as n/deff independent units.
    static func pairedMinimumDetectableEffect(churn: Double, n: Int, designEffect: Double, alpha: Double) -> Double {
        guard n > 0, alpha > 0 else { return 1 }
        let units = max(1, Int((Double(n) / max(1, designEffect)).rounded()))
        let each = churn * Double(units) / 2
        // Hundreds of background moves each way: the counts are normal, and the exact sums would cost their square.
        if each > 200 {
            let k = normalQuantile(1 - alpha) + normalQuantile(power)
            let a = k * k / Double(units)
            return min(1, (a + (a * a + 4 * a * churn).squareRoot()) / 2)
        }
        // Background moves each way, and their Poisson weights, truncated where the rest weighs under 10⁻⁶.
        let top = Int((each + 8 * each.squareRoot() + 8).rounded(.up))
        var weights: [Double] = []
        var weight = exp(-each)
        for k in 0...top {
            if k > 0 { weight *= each / Double(k) }
            weights.append(weight)
        }
        var cumulative: [Double] = []
        for weight in weights { cumulative.append((cumulative.last ?? 0) + weight) }
        // The probability the test reaches α with `moved` one-way units: p falls as the one-way count x grows and rises
        // with the other way's y, so the largest y that still reaches α only grows with x (one walk over y).
        func reaches(_ moved: Int) -> Double {
            var reached = 0.0, y = -1
            for (x, wx) in weights.enumerated() {
                while y + 1 <= top, mcnemarExactOneSided(worse: moved + x, better: y + 1) <= alpha { y += 1 }
                if y >= 0 { reached += wx * cumulative[y] }
            }
            return reached
        }
        guard reaches(units) >= power else { return 1 }
        // Power grows with the units moved: the least that reaches 80%, by bisection.
        var (low, high) = (0, units)
        while high - low > 1 {
            let middle = (low + high) / 2
            if reaches(middle) >= power { high = middle } else { low = middle }
        }
        return Double(high) / Double(units)
    }

    /// P(Z ≤ x) for a standard normal Z.
    package static func normalCDF(_ x: Double) -> Double {
        0.5 * erfc(-x / 2.0.squareRoot())
    }

    /// The standard normal quantile (Acklam's rational approximation, relative error below 1.2·10⁻⁹).
    package static func normalQuantile(_ p: Double) -> Double {
        guard p > 0 && p < 1 else { return p <= 0 ? -.infinity : .infinity }
        let a = [-3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02, 1.383577518672690e+02, -3.066479806614716e+01, 2.506628277459239e+00]
        let b = [-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02, 6.680131188771972e+01, -1.328068155288572e+01]
        let c = [-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00, -2.549732539343734e+00, 4.374664141464968e+00, 2.938163982698783e+00]
        let d = [7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00, 3.754408661907416e+00]
        let tail = 0.02425
        if p < tail || p > 1 - tail {
            let q = (-2 * log(p < tail ? p : 1 - p)).squareRoot()
            let x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1)
            return p < tail ? x : -x
        }
        let q = p - 0.5, r = q * q
        return (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q
            / (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1)
    }

    /// Standard deviation (n − 1) of a sample; 0 for fewer than two values.
    package static func standardDeviation(_ values: [Double]) -> Double {
        guard values.count > 1 else { return 0 }
        let m = mean(values)
        return (values.map { ($0 - m) * ($0 - m) }.reduce(0, +) / Double(values.count - 1)).squareRoot()
    }
}
