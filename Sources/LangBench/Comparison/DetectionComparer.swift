/// Detection accuracy checks between two runs of the same items: paired (McNemar exact), overall per
/// config (Holm across configs) and per language with enough items (Holm across a config's languages).
/// Per-item results come from each run's results log (`RunResults.detectionResults`).
enum DetectionComparer {
    static func checks(base: RunResults, current: RunResults, thresholds: Thresholds) -> [MetricCheck] {
        guard let baseReport = base.detection, let currentReport = current.detection else { return [] }
        var checks: [MetricCheck] = []
        for config in currentReport.configs.map(\.name) where baseReport.configs.contains(where: { $0.name == config }) {
            let before = Dictionary(base.detectionResults.filter { $0.config == config }.map { ($0.itemID, $0) }, uniquingKeysWith: { a, _ in a })
            let pairs = current.detectionResults.filter { $0.config == config }.compactMap { result in before[result.itemID].map { ($0, result) } }
            checks.append(check(pairs, key: "config=\(config)", points: thresholds.accuracyPoints, family: "detection.accuracy"))
            for (lang, subset) in Dictionary(grouping: pairs, by: { $0.0.lang }).sorted(by: { $0.key < $1.key })
            where subset.count >= thresholds.languageMinItems {
                checks.append(check(subset, key: "config=\(config) lang=\(lang)", points: thresholds.languageAccuracyPoints,
                                    family: "detection.accuracy config=\(config) languages"))
            }
        }
        return MetricCheck.holm(checks, alpha: thresholds.alpha)
    }

    static func check(_ pairs: [(DetectionResult, DetectionResult)], key: String, points: Double, family: String) -> MetricCheck {
        let n = pairs.count
        let baseRight = pairs.filter { $0.0.correct }.count, currentRight = pairs.filter { $0.1.correct }.count
        let fixed = pairs.filter { !$0.0.correct && $0.1.correct }.count
        let broken = pairs.filter { $0.0.correct && !$0.1.correct }.count
        let p = Statistics.mcnemarExact(b: fixed, c: broken)
        let base = n > 0 ? Double(baseRight) / Double(n) : 0, current = n > 0 ? Double(currentRight) / Double(n) : 0
        let deltaPoints = (current - base) * 100
        var check = MetricCheck(metric: "detection.accuracy", key: key, polarity: .higherIsBetter, base: base, current: current,
                                delta: current - base, interval: nil, pValue: p, threshold: points / 100, n: n, status: .unchanged,
                                rule: "McNemar exact, Holm across all gating checks, and a change of more than \(points) points (\(fixed) fixed, \(broken) broken)",
                                family: family)
        // Detection has one result per item: every pair is its own unit.
        check.powerBasis = .paired(churn: n > 0 ? Double(2 * min(fixed, broken)) / Double(n) : 0, n: n, designEffect: 1)
        check.smallestP = Statistics.mcnemarExact(b: 0, c: fixed + broken)
        check.regressionP = -deltaPoints > points ? p : 1
        check.improvementP = deltaPoints > points ? p : 1
        check.movedCandidates = .detection(pairs)
        return check
    }

    /// Items that a regression broke, for the report.
    static func brokenItems(base: RunResults, current: RunResults, config: String) -> [String] {
        let before = Dictionary(base.detectionResults.filter { $0.config == config }.map { ($0.itemID, $0.correct) }, uniquingKeysWith: { a, _ in a })
        return current.detectionResults.filter { $0.config == config && !$0.correct && before[$0.itemID] == true }.map(\.itemID)
    }
}
