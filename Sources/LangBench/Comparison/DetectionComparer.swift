/// Detection accuracy checks between two runs of the same items: paired (McNemar exact), overall and
/// per language with enough items.
enum DetectionComparer {
    static func checks(base: DetectionReport, current: DetectionReport, thresholds: Thresholds) -> [MetricCheck] {
        var checks: [MetricCheck] = []
        for config in current.configs.map(\.name) where base.configs.contains(where: { $0.name == config }) {
            let before = Dictionary(base.results.filter { $0.config == config }.map { ($0.itemID, $0) }, uniquingKeysWith: { a, _ in a })
            let pairs = current.results.filter { $0.config == config }.compactMap { result in before[result.itemID].map { ($0, result) } }
            checks.append(check(pairs, key: "config=\(config)", points: thresholds.accuracyPoints, alpha: thresholds.alpha))
            for (lang, subset) in Dictionary(grouping: pairs, by: { $0.0.lang }).sorted(by: { $0.key < $1.key })
            where subset.count >= thresholds.languageMinItems {
                checks.append(check(subset, key: "config=\(config) lang=\(lang)", points: thresholds.languageAccuracyPoints, alpha: thresholds.alpha))
            }
        }
        return checks
    }

    static func check(_ pairs: [(DetectionResult, DetectionResult)], key: String, points: Double, alpha: Double) -> MetricCheck {
        let n = pairs.count
        let baseRight = pairs.filter { $0.0.correct }.count, currentRight = pairs.filter { $0.1.correct }.count
        let fixed = pairs.filter { !$0.0.correct && $0.1.correct }.count
        let broken = pairs.filter { $0.0.correct && !$0.1.correct }.count
        let p = Statistics.mcnemarExact(b: fixed, c: broken)
        let base = n > 0 ? Double(baseRight) / Double(n) : 0, current = n > 0 ? Double(currentRight) / Double(n) : 0
        let deltaPoints = (current - base) * 100
        let status: MetricCheck.Status = p < alpha && -deltaPoints > points ? .regression : (p < alpha && deltaPoints > points ? .improvement : .unchanged)
        return MetricCheck(metric: "detection.accuracy", key: key, polarity: .higherIsBetter, base: base, current: current,
                           delta: current - base, interval: nil, pValue: p, threshold: points / 100, n: n, status: status,
                           rule: "McNemar exact p < \(alpha) and a change of more than \(points) points (\(fixed) fixed, \(broken) broken)")
    }

    /// Items that a regression broke, for the report.
    static func brokenItems(base: DetectionReport, current: DetectionReport, config: String) -> [String] {
        let before = Dictionary(base.results.filter { $0.config == config }.map { ($0.itemID, $0.correct) }, uniquingKeysWith: { a, _ in a })
        return current.results.filter { $0.config == config && !$0.correct && before[$0.itemID] == true }.map(\.itemID)
    }
}
