import Support

/// One checked metric of a comparison: what was compared, the numbers, and the verdict.
package struct MetricCheck: Sendable, Hashable, Codable {
    /// Whether a larger value is better (accuracy) or worse (latency, fallback rate).
    package enum Polarity: String, Sendable, Codable { case higherIsBetter = "higher-is-better", lowerIsBetter = "lower-is-better" }
    package enum Status: String, Sendable, Codable, Comparable {
        case regression, improvement, unchanged

        package static func < (lhs: Status, rhs: Status) -> Bool {
            let order: [Status] = [.regression, .improvement, .unchanged]
            return order.firstIndex(of: lhs)! < order.firstIndex(of: rhs)!
        }
    }

    /// e.g. `detection.accuracy`, `generation.latency_p95`, `generation.fallback_rate`.
    package var metric: String
    /// What the metric is of, e.g. `config=constrained lang=uk` or `route=pivot reason=timeout`.
    package var key: CheckKey
    /// Which share of the compare's α the check spends (`alphaShares`).
    package var kind: Kind
    package var polarity: Polarity
    package var base: Double
    package var current: Double
    /// current − base (points for rates, a ratio − 1 for latency).
    package var delta: Double
    package var interval: Statistics.Interval?
    package var pValue: Double?
    package var threshold: Double
    package var n: Int
    package var status: Status
    /// The rule applied, in words.
    package var rule: String
    /// The checks Holm's correction runs over together (the metric, or a config's languages).
    package var family: String
    /// One-sided evidence for a regression / an improvement beyond the threshold (1 when the change
    /// is not in that direction or not large enough), before and after Holm within the family.
    package var regressionP: Double = 1
    package var improvementP: Double = 1
    package var adjustedP: Double?
    /// Pairs left out of a latency figure because one run had no model reply (shown, never silent).
    package var lost: Int?
    /// A paired detection check's discordant items: right only in current (fixed) and right only in base (broken).
    package var fixed: Int?
    package var broken: Int?
    /// For an exact check (token cost): the first records that changed, each with its figures.
    package var changes: [String]?
    /// For a regressed or improved check: the items that moved (the status's direction first, capped), and how many did.
    package var moved: [MovedItem]?
    package var movedTotal: Int?
    /// What `moved` is chosen from once the status is known (set by the check; not written).
    package var movedCandidates: MovedCandidates?
    /// Whether the check spends part of the compare's α (a test with a p-value in the family-wise Holm).
    package var gating = false
    /// Minimum detectable effect at this n, on the scale of `delta` (see `Statistics.minimumDetectableEffect`):
    /// beyond the threshold's margin for latency, from no change for rates, 0 for exact checks; nil when not judged.
    package var mde: Double?
    /// "cannot see a change of … with n = …" when the threshold is below what the check can detect.
    package var powerNote: String?
    /// The level the check's p-value is tested at (its kind's share of α over Holm's first step), which `mde` is computed at.
    package var level: Double?
    /// What `mde` is computed from (set by the check; not written).
    package var powerBasis: Statistics.PowerBasis?
    /// The smallest p-value the check's data could give in any outcome (McNemar: every discordant record one
    /// way, given the discordant counts; bootstrap: 1/(resamples + 1)). Not written.
    package var smallestP: Double?
    /// How many other checks of its kind a change of this check's size moves as well (a language's drop in one config
    /// moves that language in the other configs and each config's accuracy and cost): its mde is planned at the level it
    /// would get among them, not alone. Not written.
    package var movesWith = 0

    enum CodingKeys: String, CodingKey {
        case metric, key, kind, polarity, base, current, delta, interval, pValue = "p_value", adjustedP = "p_holm", threshold, n, status, rule
        case family, lost, fixed, broken, changes, moved, movedTotal = "moved_total", gating, mde, powerNote = "power_note", level
    }

    package init(metric: String, key: CheckKey, kind: Kind, polarity: Polarity, base: Double, current: Double, delta: Double, interval: Statistics.Interval?,
                pValue: Double?, threshold: Double, n: Int, status: Status, rule: String, family: String? = nil) {
        self.metric = metric
        self.key = key
        self.kind = kind
        self.polarity = polarity
        self.base = base
        self.current = current
        self.delta = delta
        self.interval = interval
        self.pValue = pValue
        self.threshold = threshold
        self.n = n
        self.status = status
        self.rule = rule
        self.family = family ?? metric
    }

    package init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        // A figure written as null was not measured (NaN in memory, see `encode`).
        self.init(metric: try c.decode(String.self, forKey: .metric), key: try c.decode(CheckKey.self, forKey: .key),
                  kind: try c.decodeIfPresent(Kind.self, forKey: .kind) ?? .outcomes,
                  polarity: try c.decode(Polarity.self, forKey: .polarity), base: try c.decodeIfPresent(Double.self, forKey: .base) ?? .nan,
                  current: try c.decodeIfPresent(Double.self, forKey: .current) ?? .nan, delta: try c.decodeIfPresent(Double.self, forKey: .delta) ?? .nan,
                  interval: try c.decodeIfPresent(Statistics.Interval.self, forKey: .interval), pValue: try c.decodeIfPresent(Double.self, forKey: .pValue),
                  threshold: try c.decode(Double.self, forKey: .threshold), n: try c.decode(Int.self, forKey: .n),
                  status: try c.decode(Status.self, forKey: .status), rule: try c.decode(String.self, forKey: .rule),
                  family: try c.decodeIfPresent(String.self, forKey: .family))
        adjustedP = try c.decodeIfPresent(Double.self, forKey: .adjustedP)
        lost = try c.decodeIfPresent(Int.self, forKey: .lost)
        fixed = try c.decodeIfPresent(Int.self, forKey: .fixed)
        broken = try c.decodeIfPresent(Int.self, forKey: .broken)
        changes = try c.decodeIfPresent([String].self, forKey: .changes)
        moved = try c.decodeIfPresent([MovedItem].self, forKey: .moved)
        movedTotal = try c.decodeIfPresent(Int.self, forKey: .movedTotal)
        gating = try c.decodeIfPresent(Bool.self, forKey: .gating) ?? false
        mde = try c.decodeIfPresent(Double.self, forKey: .mde)
        powerNote = try c.decodeIfPresent(String.self, forKey: .powerNote)
        level = try c.decodeIfPresent(Double.self, forKey: .level)
    }

    /// A figure that could not be measured (no pair with a positive time: a stream sent in one burst has TPOT 0) is NaN
    /// in memory and null in JSON, which has no NaN: the encoder would refuse the whole report.
    package func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        func finite(_ value: Double?) -> Double? { value.flatMap { $0.isFinite ? $0 : nil } }
        try c.encode(metric, forKey: .metric)
        try c.encode(key, forKey: .key)
        try c.encode(kind, forKey: .kind)
        try c.encode(polarity, forKey: .polarity)
        for (value, key) in [(base, CodingKeys.base), (current, .current), (delta, .delta), (threshold, .threshold)] {
            if let value = finite(value) { try c.encode(value, forKey: key) } else { try c.encodeNil(forKey: key) }
        }
        if let interval, interval.low.isFinite, interval.high.isFinite { try c.encode(interval, forKey: .interval) }
        try c.encodeIfPresent(finite(pValue), forKey: .pValue)
        try c.encodeIfPresent(finite(adjustedP), forKey: .adjustedP)
        try c.encode(n, forKey: .n)
        try c.encode(status, forKey: .status)
        try c.encode(rule, forKey: .rule)
        try c.encode(family, forKey: .family)
        try c.encodeIfPresent(lost, forKey: .lost)
        try c.encodeIfPresent(fixed, forKey: .fixed)
        try c.encodeIfPresent(broken, forKey: .broken)
        try c.encodeIfPresent(changes, forKey: .changes)
        try c.encodeIfPresent(moved, forKey: .moved)
        try c.encodeIfPresent(movedTotal, forKey: .movedTotal)
        try c.encode(gating, forKey: .gating)
        try c.encodeIfPresent(finite(mde), forKey: .mde)
        try c.encodeIfPresent(powerNote, forKey: .powerNote)
        try c.encodeIfPresent(finite(level), forKey: .level)
    }

    /// Sets every check's status with Holm's correction within its family: a regression (or an
    /// improvement) when its adjusted one-sided p is below `alpha`.
    package static func holm(_ checks: [MetricCheck], alpha: Double) -> [MetricCheck] {
        var out = checks
        for family in Set(checks.map(\.family)) {
            let members = out.indices.filter { out[$0].family == family }
            let regression = Statistics.holm(members.map { out[$0].regressionP })
            let improvement = Statistics.holm(members.map { out[$0].improvementP })
            for (position, index) in members.enumerated() {
                out[index].status = regression[position] < alpha ? .regression : (improvement[position] < alpha ? .improvement : .unchanged)
                let judged = out[index].regressionP < 1 || out[index].improvementP < 1
                out[index].adjustedP = judged ? min(regression[position], improvement[position]) : nil
            }
        }
        return out
    }
}
