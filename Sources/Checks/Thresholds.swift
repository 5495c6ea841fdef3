import Support

/// How large a change must be before `compare` calls it a regression or an improvement (data, not
/// code). Significance is required as well: a change within noise is never a verdict.
package struct Thresholds: Sendable, Hashable, Codable {
    /// Family-wise significance level of a compare: Holm across all its gating checks.
    package var alpha: Double
    /// Overall detection accuracy drop, in percentage points.
    package var accuracyPoints: Double
    /// Per-language accuracy drop, in points, checked for languages with at least `languageMinItems` items.
    package var languageAccuracyPoints: Double
    package var languageMinItems: Int
    /// Latency: the paired CURRENT/BASE ratio (geometric mean, and p95 of per-item latency) must be significantly above 1 + this.
    package var latencyRatio: Double
    /// Fallback rate increase per reason, in points.
    package var fallbackPoints: Double
    /// Token cost: total prompt tokens evaluated, or tokens generated, over the same records rising by more
    /// than this fraction (exact counts, no test needed).
    package var tokenCostRatio: Double
    /// Calibrated latency: how far apart two machines' calibrations may be, per component (prompt
    /// processing, generation, fixed request), and still be scaled onto one another; beyond it the latency
    /// is refused as not comparable.
    package var calibrationMargin: Double
    /// Translation quality: a language's mean chrF of the pivot's translate-in dropping by more than this many
    /// points (of 100), on the same messages.
    package var translationChrFPoints: Double
    /// A pivot reply whose translate-in scored below this chrF against its reference is "lost: translation" in the
    /// served funnel (a run reads it from its suite's thresholds and records it in its settings).
    package var translationLostChrF: Double

    enum CodingKeys: String, CodingKey {
        case alpha, accuracyPoints = "accuracy_points", languageAccuracyPoints = "language_accuracy_points"
        case languageMinItems = "language_min_items", latencyRatio = "latency_ratio", fallbackPoints = "fallback_points"
        case tokenCostRatio = "token_cost_ratio", calibrationMargin = "calibration_margin"
        case translationChrFPoints = "translation_chrf_points", translationLostChrF = "translation_lost_chrf"
    }

    package static let strict = Thresholds(alpha: 0.05, accuracyPoints: 0.25, languageAccuracyPoints: 0.5, languageMinItems: 40,
                                          latencyRatio: 0.05, fallbackPoints: 1, tokenCostRatio: 0.02, translationChrFPoints: 2)
    package static let `default` = Thresholds(alpha: 0.05, accuracyPoints: 0.5, languageAccuracyPoints: 1, languageMinItems: 40,
                                             latencyRatio: 0.10, fallbackPoints: 2, tokenCostRatio: defaultTokenCostRatio)
    package static let relaxed = Thresholds(alpha: 0.01, accuracyPoints: 1, languageAccuracyPoints: 5, languageMinItems: 40,
                                           latencyRatio: 0.25, fallbackPoints: 5, tokenCostRatio: 0.10, translationChrFPoints: 10)

    package static let presets: [String: Thresholds] = ["strict": .strict, "default": .default, "relaxed": .relaxed]

    package init(alpha: Double, accuracyPoints: Double, languageAccuracyPoints: Double, languageMinItems: Int, latencyRatio: Double, fallbackPoints: Double,
                tokenCostRatio: Double = Thresholds.defaultTokenCostRatio, calibrationMargin: Double = Thresholds.defaultCalibrationMargin,
                translationChrFPoints: Double = 5, translationLostChrF: Double = Thresholds.defaultTranslationLostChrF) {
        self.alpha = alpha
        self.accuracyPoints = accuracyPoints
        self.languageAccuracyPoints = languageAccuracyPoints
        self.languageMinItems = languageMinItems
        self.latencyRatio = latencyRatio
        self.fallbackPoints = fallbackPoints
        self.tokenCostRatio = tokenCostRatio
        self.calibrationMargin = calibrationMargin
        self.translationChrFPoints = translationChrFPoints
        self.translationLostChrF = translationLostChrF
    }

    /// chrF 20: below it a translation has kept little more than scattered words of the message (a correct one of a
    /// short chat message scores 40–90, an unrelated sentence in the same language 5–15).
    package static let defaultTranslationLostChrF = 20.0

    /// ×1.25: two machines' calibrations per component further apart than this are not scaled onto one another.
    package static let defaultCalibrationMargin = 1.25

    /// +5%: a prompt edit of a few words moves a record's tokens by less; an added instruction or
    /// example, or a dropped history turn, by more.
    package static let defaultTokenCostRatio = 0.05

    /// Keys missing from a thresholds file keep the named preset's values (`"preset": "strict"`, default `default`).
    package init(from decoder: Decoder) throws {
        try StrictJSON.rejectUnknownKeys(in: decoder, allowed: ["schema_version", "preset"] + Self.keyNames)
        let container = try decoder.container(keyedBy: StrictJSON.AnyKey.self)
        let presetName = try container.decodeIfPresent(String.self, forKey: .init(stringValue: "preset")) ?? "default"
        guard let base = Self.presets[presetName] else {
            throw DecodingError.dataCorruptedError(forKey: .init(stringValue: "preset"), in: container, debugDescription: "unknown preset '\(presetName)' (strict, default, relaxed)")
        }
        let keyed = try decoder.container(keyedBy: CodingKeys.self)
        alpha = try keyed.decodeIfPresent(Double.self, forKey: .alpha) ?? base.alpha
        accuracyPoints = try keyed.decodeIfPresent(Double.self, forKey: .accuracyPoints) ?? base.accuracyPoints
        languageAccuracyPoints = try keyed.decodeIfPresent(Double.self, forKey: .languageAccuracyPoints) ?? base.languageAccuracyPoints
        languageMinItems = try keyed.decodeIfPresent(Int.self, forKey: .languageMinItems) ?? base.languageMinItems
        latencyRatio = try keyed.decodeIfPresent(Double.self, forKey: .latencyRatio) ?? base.latencyRatio
        fallbackPoints = try keyed.decodeIfPresent(Double.self, forKey: .fallbackPoints) ?? base.fallbackPoints
        tokenCostRatio = try keyed.decodeIfPresent(Double.self, forKey: .tokenCostRatio) ?? base.tokenCostRatio
        calibrationMargin = try keyed.decodeIfPresent(Double.self, forKey: .calibrationMargin) ?? base.calibrationMargin
        translationChrFPoints = try keyed.decodeIfPresent(Double.self, forKey: .translationChrFPoints) ?? base.translationChrFPoints
        translationLostChrF = try keyed.decodeIfPresent(Double.self, forKey: .translationLostChrF) ?? base.translationLostChrF
        if let version = try container.decodeIfPresent(Int.self, forKey: .init(stringValue: "schema_version")) {
            try StrictJSON.checkSchemaVersion(version)
        }
        // A value out of range flips verdicts (alpha 0 never flags, a negative margin flags noise) or means nothing
        // (a drop of more than 100 points, a change beyond ×11): refuse it, naming the range.
        try StrictJSON.check(alpha > 0 && alpha < 1, "alpha", in: decoder, "must be between 0 and 1 (exclusive), not \(alpha)")
        for (key, value) in [("accuracy_points", accuracyPoints), ("language_accuracy_points", languageAccuracyPoints), ("fallback_points", fallbackPoints),
                             ("translation_chrf_points", translationChrFPoints), ("translation_lost_chrf", translationLostChrF)] {
            try StrictJSON.check(Self.points.contains(value), key, in: decoder, "must be between 0 and 100 percentage points, not \(value)")
        }
        for (key, value) in [("latency_ratio", latencyRatio), ("token_cost_ratio", tokenCostRatio)] {
            try StrictJSON.check(Self.fraction.contains(value), key, in: decoder, "must be a fraction between 0 and 10 (0.10 is +10%), not \(value)")
        }
        try StrictJSON.check(Self.margin.contains(calibrationMargin), "calibration_margin", in: decoder,
                             "must be a factor between 1 and 10 (1.25 allows machines ×1.25 apart), not \(calibrationMargin)")
        try StrictJSON.check(Self.itemCount.contains(languageMinItems), "language_min_items", in: decoder,
                             "must be between 1 and 1000000000, not \(languageMinItems)")
    }

    /// The meaningful range of each kind of threshold: points of a rate, a relative change, a machine factor, an item count.
    static let points = 0.0...100.0, fraction = 0.0...10.0, margin = 1.0...10.0, itemCount = 1...1_000_000_000

    package static let keyNames = ["alpha", "accuracy_points", "language_accuracy_points", "language_min_items", "latency_ratio", "fallback_points", "token_cost_ratio", "calibration_margin",
                                        "translation_chrf_points", "translation_lost_chrf"]

    /// A preset name or a JSON file.
    package static func named(_ nameOrPath: String) throws -> Thresholds {
        if let preset = presets[nameOrPath] { return preset }
        return try StrictJSON.load(Thresholds.self, from: nameOrPath)
    }
}
