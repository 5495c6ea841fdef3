@testable import BenchSupport
import Foundation
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

    /// a = (1.959964 + 0.841621)²·deff/n; d = (a + √(a² + 4·a·churn))/2. No churn, 45 items: d = a = 0.174420.
    /// Churn 0.1 over 200 records: a = 0.039244, d = 0.085269. Two repeats per item (deff 2) over 90 records: as 45 items.
    @Test func pairedMDE() {
        #expect(abs(Statistics.minimumDetectableEffect(.paired(churn: 0, n: 45, designEffect: 1), alpha: 0.05) - 0.174420) < 1e-6)
        #expect(abs(Statistics.minimumDetectableEffect(.paired(churn: 0.1, n: 200, designEffect: 1), alpha: 0.05) - 0.085269) < 1e-6)
        #expect(abs(Statistics.minimumDetectableEffect(.paired(churn: 0, n: 90, designEffect: 2), alpha: 0.05) - 0.174420) < 1e-6)
        #expect(Statistics.minimumDetectableEffect(.exact, alpha: 0.05) == 0)
    }

    /// One pair per item: the asymptotic McNemar statistic, 8/√8 → p = 0.004678. The same 8 discordant
    /// records as 4 items × 2 repeats: z = 8/√16 = 2 → p = 0.045500.
    @Test func clusteredMcNemarCountsAnItemsRepeatsOnce() {
        let single = Statistics.mcnemarClustered(Array(repeating: (b: 1, c: 0), count: 8))
        #expect(abs(single.p - 0.004678) < 1e-6 && abs(single.spread - 8.0.squareRoot()) < 1e-12)
        let repeated = Statistics.mcnemarClustered(Array(repeating: (b: 2, c: 0), count: 4))
        #expect(abs(repeated.p - 0.045500) < 1e-6)
        #expect(Statistics.mcnemarClustered([(b: 1, c: 1), (b: 0, c: 0)]).p == 1)
    }
}
