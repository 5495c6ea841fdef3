import Foundation

/// Student's t distribution, for intervals on a handful of block means: with four blocks a bootstrap that
/// resamples them understates how far their mean can wander, and its interval covers too rarely.
extension Statistics {
    /// P(T ≤ t) for T with `degrees` degrees of freedom.
    package static func studentTCDF(_ t: Double, degrees: Double) -> Double {
        guard t.isFinite else { return t > 0 ? 1 : 0 }
        let x = degrees / (degrees + t * t)
        let tail = 0.5 * regularizedIncompleteBeta(x, a: degrees / 2, b: 0.5)
        return t > 0 ? 1 - tail : tail
    }

    /// The p-quantile of Student's t with `degrees` degrees of freedom, by bisection on the CDF.
    package static func studentTQuantile(_ p: Double, degrees: Double) -> Double {
        guard p > 0 && p < 1 else { return p <= 0 ? -.infinity : .infinity }
        var low = -1e4, high = 1e4
        for _ in 0..<200 {
            let middle = (low + high) / 2
            if studentTCDF(middle, degrees: degrees) < p { low = middle } else { high = middle }
        }
        return (low + high) / 2
    }

    /// I_x(a, b) by its continued fraction (Lentz's method), on the side where it converges fast.
    static func regularizedIncompleteBeta(_ x: Double, a: Double, b: Double) -> Double {
        guard x > 0 else { return 0 }
        guard x < 1 else { return 1 }
        let logGammas: Double = lgamma(a + b) - lgamma(a) - lgamma(b)
        let logPowers: Double = a * log(x) + b * log(1 - x)
        let front = exp(logGammas + logPowers)
        if x > (a + 1) / (a + b + 2) { return 1 - regularizedIncompleteBeta(1 - x, a: b, b: a) }
        let tiny = 1e-300
        var c = 1.0, d = 1 - (a + b) * x / (a + 1)
        if abs(d) < tiny { d = tiny }
        d = 1 / d
        var result = d
        for m in 1...300 {
            let m = Double(m)
            let even = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m))
            d = 1 + even * d; if abs(d) < tiny { d = tiny }
            c = 1 + even / c; if abs(c) < tiny { c = tiny }
            d = 1 / d
            result *= d * c
            let odd = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))
            d = 1 + odd * d; if abs(d) < tiny { d = tiny }
            c = 1 + odd / c; if abs(c) < tiny { c = tiny }
            d = 1 / d
            let step = d * c
            result *= step
            if abs(step - 1) < 1e-14 { break }
        }
        return front * result / a
    }
}
