import BenchSupport
import Detection
import Generation

/// Detection accuracy checks between two runs of the same items: paired (McNemar exact, one-sided), overall per
/// config (Holm across configs) and per language with enough items (Holm across a config's languages).
/// The paired counts come from one streaming pass over both runs' results logs (`DetectionJoin`).
enum DetectionComparer {
    static func checks(_ join: DetectionJoin, thresholds: Thresholds) -> [MetricCheck] {
        var checks: [MetricCheck] = []
        for (config, counts) in join.configs {
            checks.append(check(counts.all, key: "config=\(config)", points: thresholds.accuracyPoints, family: "detection.accuracy",
                                moved: counts.moved))
            for (lang, subset) in counts.byLanguage.sorted(by: { $0.key < $1.key }) where subset.n >= thresholds.languageMinItems {
                checks.append(check(subset, key: "config=\(config) lang=\(lang)", points: thresholds.languageAccuracyPoints,
                                    family: "detection.accuracy config=\(config) languages", moved: counts.movedByLanguage[lang] ?? MovedCandidates(worse: [], better: [])))
            }
        }
        return MetricCheck.holm(checks, alpha: thresholds.alpha)
    }

    /// The check of `pairs` (base result, current result) of one item each.
    static func check(_ pairs: [(DetectionResult, DetectionResult)], key: String, points: Double, family: String) -> MetricCheck {
        var counts = DetectionJoin.Counts()
        for (base, current) in pairs { counts.add(base: base.correct, current: current.correct) }
        return check(counts, key: key, points: points, family: family, moved: .detection(pairs))
    }

    static func check(_ counts: DetectionJoin.Counts, key: String, points: Double, family: String, moved: MovedCandidates?) -> MetricCheck {
        let n = counts.n, fixed = counts.fixed, broken = counts.broken
        let worseP = Statistics.mcnemarExactOneSided(worse: broken, better: fixed), betterP = Statistics.mcnemarExactOneSided(worse: fixed, better: broken)
        let base = n > 0 ? Double(counts.baseRight) / Double(n) : 0, current = n > 0 ? Double(counts.currentRight) / Double(n) : 0
        let deltaPoints = (current - base) * 100
        var check = MetricCheck(metric: "detection.accuracy", key: key, polarity: .higherIsBetter, base: base, current: current,
                                delta: current - base, interval: nil, pValue: deltaPoints < 0 ? worseP : betterP, threshold: points / 100, n: n, status: .unchanged,
                                rule: "McNemar exact, one-sided, Holm within detection's share of α, and a change of more than \(points) points (\(fixed) fixed, \(broken) broken)",
                                family: family)
        // Detection has one result per item: every pair is its own unit.
        check.powerBasis = .paired(churn: n > 0 ? Double(2 * min(fixed, broken)) / Double(n) : 0, n: n, designEffect: 1)
        check.smallestP = Statistics.signFlipSmallestP(count: fixed + broken)
        check.regressionP = -deltaPoints > points ? worseP : 1
        check.improvementP = deltaPoints > points ? betterP : 1
        check.movedCandidates = moved
        return check
    }
}
