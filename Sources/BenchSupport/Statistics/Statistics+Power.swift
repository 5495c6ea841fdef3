import Foundation

/// Minimum detectable effects: the change a check flags with 80% power at its n, from the check's own
/// spread. Normal approximations throughout (a planning figure, not a test).
extension Statistics {
    /// The power every minimum detectable effect is computed for.
    public static let power = 0.8

    /// What a check's minimum detectable effect is computed from.
    public enum PowerBasis: Sendable, Hashable {
        /// A one-sided test of a log-ratio against the threshold's margin; `standardError` is the standard
        /// deviation of its bootstrap distribution.
        case logRatio(standardError: Double)
        /// The same test on the mean of a few block means, judged by Student's t with `blocks` − 1 degrees of freedom.
        case blockMeans(standardError: Double, blocks: Int)
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
    /// - `.paired`: the difference in proportions d from no change solving d = k·√(deff·(churn + d)/n),
    ///   k = z₁₋α + z₀.₈: a true change d adds a fraction d of discordant records to the churn, so a run
    ///   with no discordant record still cannot see less than k²·deff/n;
    /// - `.exact`: 0.
    public static func minimumDetectableEffect(_ basis: PowerBasis, alpha: Double) -> Double {
        switch basis {
        case .exact:
            return 0
        case .logRatio(let se):
            return exp((normalQuantile(1 - alpha) + normalQuantile(power)) * se) - 1
        case .blockMeans(let se, let blocks):
            let degrees = Double(max(1, blocks - 1))
            return exp((studentTQuantile(1 - alpha, degrees: degrees) + studentTQuantile(power, degrees: degrees)) * se) - 1
        case .paired(let churn, let n, let designEffect):
            guard n > 0 else { return 1 }
            let k = normalQuantile(1 - alpha) + normalQuantile(power)
            let a = k * k * designEffect / Double(n)
            return (a + (a * a + 4 * a * churn).squareRoot()) / 2
        }
    }

    /// The standard normal quantile (Acklam's rational approximation, relative error below 1.2·10⁻⁹).
    public static func normalQuantile(_ p: Double) -> Double {
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
    public static func standardDeviation(_ values: [Double]) -> Double {
        guard values.count > 1 else { return 0 }
        let m = mean(values)
        return (values.map { ($0 - m) * ($0 - m) }.reduce(0, +) / Double(values.count - 1)).squareRoot()
    }
}
