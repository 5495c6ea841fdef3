import Support
import Checks
import Detection
import Corpus
import Foundation

/// Detection accuracy checks between two runs of the same items: paired (McNemar exact, one-sided), overall per
/// config (Holm across configs) and per language with enough items (Holm across a config's languages).
/// The paired counts come from one streaming pass over both runs' results logs (`DetectionJoin`).
enum DetectionComparer {
    static func checks(_ join: DetectionJoin, thresholds: Thresholds) -> [MetricCheck] {
        var checks: [MetricCheck] = []
        // A sweep's configs are read in the report's sweep table, not gated: they would only widen the Holm families.
        let gated = join.configs.filter { DetectionSweep.set(ofConfig: $0.name) == nil }
        // What a change moves besides a check (its mde is planned among them): a config's accuracy moves its cost; a
        // language's drop, as a recognizer change makes it, moves that language in every config and every config-wide check.
        let configWide = join.costs != nil ? 2 : 1
        for (config, counts) in gated {
            var accuracy = check(counts.all, key: CheckKey([.config: config]), points: thresholds.accuracyPoints, family: MetricName.accuracy, moved: counts.moved)
            accuracy.movesWith = configWide - 1
            checks.append(accuracy)
            if join.costs != nil {
                var cost = costCheck(counts, config: config, points: thresholds.accuracyPoints)
                cost.movesWith = 1
                checks.append(cost)
            }
            for (lang, subset) in counts.byLanguage.sorted(by: { $0.key < $1.key }) where subset.n >= thresholds.languageMinItems {
                var language = check(subset, key: CheckKey([.config: config, .lang: lang.identifier]), points: thresholds.languageAccuracyPoints,
                                     family: "detection.accuracy config=\(config) languages", moved: counts.movedByLanguage[lang] ?? MovedCandidates(worse: [], better: []))
                language.movesWith = (gated.count - 1) + gated.count * configWide
                checks.append(language)
            }
        }
        return MetricCheck.holm(checks, alpha: thresholds.alpha)
    }

    /// The cost-weighted error of a config: mean cost per item in each run, judged on the items whose cost changed. A
    /// change that trades cheap errors for costly ones (ru→uk fixed, uk→ru made) at equal accuracy moves few items and
    /// barely the mean over all of them, so the test is on the moved items: a permutation test of the costs of the errors
    /// made against those removed (under no shift towards costlier confusions, which of the pooled error costs are the
    /// new ones is a draw without replacement), red when the errors made cost more, the moved items' mean cost rose by
    /// more than the accuracy threshold read in cost units, and the config's total cost rose. A pure drop or gain (errors
    /// only made, or only removed) is the accuracy check's: its costs are one group, and this test says nothing.
    static func costCheck(_ join: DetectionJoin.ConfigJoin, config: String, points: Double) -> MetricCheck {
        let n = join.all.n, threshold = points / 100, differences = join.costDifferences
        let base = n > 0 ? join.cost.base / Double(n) : 0, current = n > 0 ? join.cost.current / Double(n) : 0
        let delta = current - base
        let removed = join.movedCosts.map(\.base).filter { $0 > 0 }, made = join.movedCosts.map(\.current).filter { $0 > 0 }
        let pool = removed + made
        let worseP = Statistics.permutationSumP(pool: pool, size: made.count, observed: made.reduce(0, +))
        let betterP = Statistics.permutationSumP(pool: pool, size: removed.count, observed: removed.reduce(0, +))
        let perMoved = differences.isEmpty ? 0 : differences.reduce(0, +) / Double(differences.count)
        var check = MetricCheck(metric: MetricName.confusionCost, key: CheckKey([.config: config]), kind: .detection, polarity: .lowerIsBetter, base: base,
                                current: current, delta: delta, interval: nil, pValue: delta > 0 ? worseP : betterP, threshold: threshold, n: n,
                                status: .unchanged,
                                rule: "permutation test of the costs of the \(made.count) errors made against the \(removed.count) removed (\(differences.count) items' "
                                    + "cost changed, by \(String(format: "%+.2f", perMoved)) each on average), one-sided, Holm within detection's share of α, "
                                    + "and a change of more than \(points / 100) per moved item",
                                family: MetricName.confusionCost)
        let squares = differences.map { $0 * $0 }.reduce(0, +)
        check.powerBasis = .paired(churn: n > 0 ? squares / Double(n) : 0, n: n, designEffect: 1)
        check.smallestP = min(Statistics.permutationSmallestP(pool: pool, size: made.count), Statistics.permutationSmallestP(pool: pool, size: removed.count))
        check.regressionP = delta > 0 && perMoved > threshold ? worseP : 1
        check.improvementP = delta < 0 && -perMoved > threshold ? betterP : 1
        return check
    }

    /// The check of `pairs` (base result, current result) of one item each.
    static func check(_ pairs: [(DetectionResult, DetectionResult)], key: CheckKey, points: Double, family: String) -> MetricCheck {
        var counts = DetectionJoin.Counts()
        for (base, current) in pairs { counts.add(base: base.correct, current: current.correct) }
        return check(counts, key: key, points: points, family: family, moved: .detection(pairs))
    }

    static func check(_ counts: DetectionJoin.Counts, key: CheckKey, points: Double, family: String, moved: MovedCandidates?) -> MetricCheck {
        let n = counts.n, fixed = counts.fixed, broken = counts.broken
        let worseP = Statistics.mcnemarExactOneSided(worse: broken, better: fixed), betterP = Statistics.mcnemarExactOneSided(worse: fixed, better: broken)
        let base = n > 0 ? Double(counts.baseRight) / Double(n) : 0, current = n > 0 ? Double(counts.currentRight) / Double(n) : 0
        let deltaPoints = (current - base) * 100
        var check = MetricCheck(metric: MetricName.accuracy, key: key, kind: .detection, polarity: .higherIsBetter, base: base, current: current,
                                delta: current - base, interval: nil, pValue: deltaPoints < 0 ? worseP : betterP, threshold: points / 100, n: n, status: .unchanged,
                                rule: "McNemar exact, one-sided, Holm within detection's share of α, and a change of at least \(points) points (\(fixed) fixed, \(broken) broken)",
                                family: family)
        // Detection has one result per item: every pair is its own unit.
        check.powerBasis = .paired(churn: n > 0 ? Double(2 * min(fixed, broken)) / Double(n) : 0, n: n, designEffect: 1)
        check.smallestP = Statistics.signFlipSmallestP(count: fixed + broken)
        // At least the threshold: 40 of 2,000 items is a 2-point drop, whatever the last bit of the division says.
        let reaches = { (points: Double, threshold: Double) in points >= threshold - 1e-9 }
        check.regressionP = reaches(-deltaPoints, points) ? worseP : 1
        check.improvementP = reaches(deltaPoints, points) ? betterP : 1
        check.movedCandidates = moved
        (check.fixed, check.broken) = (fixed, broken)
        return check
    }
}

extension MovedCandidates {
    /// Detection pairs (base, current) that changed correctness; items tagged `crisis` in either run are counted, not listed.
    package static func detection(_ pairs: [(DetectionResult, DetectionResult)]) -> MovedCandidates {
        let sorted = pairs.sorted { $0.1.itemID < $1.1.itemID }
        let moved = { (pair: (DetectionResult, DetectionResult), change: String) in
            MovedItem(item: pair.1.itemID, change: change, detail: "\(pair.0.predictedLabel) → \(pair.1.predictedLabel) (true \(pair.1.lang.identifier))")
        }
        let crisis = { (pair: (DetectionResult, DetectionResult)) in pair.0.tags.contains("crisis") || pair.1.tags.contains("crisis") }
        let broken = sorted.filter { $0.0.correct && !$0.1.correct }, fixed = sorted.filter { !$0.0.correct && $0.1.correct }
        return MovedCandidates(worse: broken.filter { !crisis($0) }.map { moved($0, "broken") },
                               better: fixed.filter { !crisis($0) }.map { moved($0, "fixed") },
                               worseWithheld: broken.filter(crisis).count, betterWithheld: fixed.filter(crisis).count)
    }

}
