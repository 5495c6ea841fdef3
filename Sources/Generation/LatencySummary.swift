import Support

/// Latency distribution of one group of records, with order-statistic intervals on p50 and p95.
package struct LatencySummary: Sendable, Hashable, Codable {
    package var n: Int
    package var mean: Double
    package var p50: Double
    package var p90: Double
    package var p95: Double
    package var p99: Double
    package var max: Double
    /// Nil below `Statistics.minimumForInterval` values.
    package var p50CI: Statistics.Interval?
    package var p95CI: Statistics.Interval?

    enum CodingKeys: String, CodingKey {
        case n, mean, p50, p90, p95, p99, max, p50CI = "p50_ci95", p95CI = "p95_ci95"
    }

    package init?(_ values: [Double]) {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        n = values.count
        mean = Statistics.mean(values)
        p50 = Statistics.quantile(sorted: sorted, 0.5)
        p90 = Statistics.quantile(sorted: sorted, 0.9)
        p95 = Statistics.quantile(sorted: sorted, 0.95)
        p99 = Statistics.quantile(sorted: sorted, 0.99)
        max = sorted.last!
        let enough = values.count >= Statistics.minimumForInterval
        // Order statistics, not a bootstrap: no seed decides the ends, and a p95 of too few values has none.
        p50CI = enough ? Statistics.quantileInterval(values, 0.5) : nil
        p95CI = enough ? Statistics.quantileInterval(values, 0.95) : nil
    }
}
