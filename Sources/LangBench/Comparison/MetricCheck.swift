/// One checked metric of a comparison: what was compared, the numbers, and the verdict.
public struct MetricCheck: Sendable, Hashable, Codable {
    /// Whether a larger value is better (accuracy) or worse (latency, fallback rate).
    public enum Polarity: String, Sendable, Codable { case higherIsBetter = "higher-is-better", lowerIsBetter = "lower-is-better" }
    public enum Status: String, Sendable, Codable, Comparable {
        case regression, improvement, unchanged

        public static func < (lhs: Status, rhs: Status) -> Bool {
            let order: [Status] = [.regression, .improvement, .unchanged]
            return order.firstIndex(of: lhs)! < order.firstIndex(of: rhs)!
        }
    }

    /// e.g. `detection.accuracy`, `generation.latency_p95`, `generation.fallback_rate`.
    public var metric: String
    /// What the metric is of, e.g. `config=constrained lang=uk` or `route=pivot reason=timeout`.
    public var key: String
    public var polarity: Polarity
    public var base: Double
    public var current: Double
    /// current − base (points for rates, a ratio − 1 for latency).
    public var delta: Double
    public var interval: Statistics.Interval?
    public var pValue: Double?
    public var threshold: Double
    public var n: Int
    public var status: Status
    /// The rule applied, in words.
    public var rule: String

    enum CodingKeys: String, CodingKey {
        case metric, key, polarity, base, current, delta, interval, pValue = "p_value", threshold, n, status, rule
    }
}
