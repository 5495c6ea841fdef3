import Generation
import Support
import Checks
import Foundation
import Corpus

/// Translation quality per language, paired per message: the pivot's translate-in chrF in each run against the same
/// English reference. A language's people are served through the pivot only as well as their messages are translated,
/// and an engine or pack change moves some languages and not others, so the check is per language.
package enum TranslationChrF {
    /// One check per language among the pairs scored in both runs (chrF 0–100, the check's values as fractions of 100 so
    /// they read as points). A sign-flip test of the mean per-message difference against `translation_chrf_points` each
    /// way (non-inferiority: the threshold is in the test, not a filter on the estimate), on the changed messages: like
    /// the rates' McNemar checks, a message whose translation did not change counts for nothing and cannot be flipped, so
    /// an unchanged engine spends no α (Tarone). The sign-flip test is exact when the changes are symmetric about their
    /// mean; the rule says so.
    static func checks(_ paired: [GenerationComparer.Pair], key: CheckKey, thresholds: Thresholds) -> [MetricCheck] {
        let scored = paired.filter { $0.base.translateInChrF != nil && $0.current.translateInChrF != nil }
        return Dictionary(grouping: scored, by: \.current.lang).sorted { $0.key < $1.key }.map { lang, pairs in
            // An item's repeats as one unit: its mean score in each run.
            let items = Dictionary(grouping: pairs, by: \.base.itemID).sorted { $0.key < $1.key }.map { _, own in
                (base: Statistics.mean(own.map { $0.base.translateInChrF! / 100 }), current: Statistics.mean(own.map { $0.current.translateInChrF! / 100 }))
            }
            let differences = items.map { $0.current - $0.base }
            let base = Statistics.mean(items.map(\.base)), current = Statistics.mean(items.map(\.current))
            let points = thresholds.translationChrFPoints / 100
            var check = MetricCheck(metric: MetricName.translateInChrF, key: key.with(.lang, lang.identifier), kind: .outcomes, polarity: .higherIsBetter, base: base,
                                    current: current, delta: current - base, interval: nil, pValue: nil, threshold: points, n: items.count,
                                    status: .unchanged, rule: "")
            let moved = differences.filter { $0 != 0 }, changed = moved.count
            let worseP = Statistics.signFlipP(differences, beyond: 0, above: false), betterP = Statistics.signFlipP(differences, beyond: 0, above: true)
            check.pValue = check.delta <= 0 ? worseP : betterP
            // Tested against the threshold, not filtered by it: the mean over all messages below −points is the changed
            // messages' mean below −points·n/changed (an unchanged message differs by exactly 0), so the sign-flip test
            // runs on the changed messages against that margin. A true change of exactly −points is red at most at the level.
            let margin = changed > 0 ? points * Double(items.count) / Double(changed) : 0
            check.regressionP = changed > 0 ? Statistics.signFlipP(moved, beyond: -margin, above: false) : 1
            check.improvementP = changed > 0 ? Statistics.signFlipP(moved, beyond: margin, above: true) : 1
            if items.count > 1 {
                let boot = Statistics.bootstrapMeans(differences)
                check.interval = .init(low: Statistics.quantile(sorted: boot, 0.025), high: Statistics.quantile(sorted: boot, 0.975))
            }
            check.smallestP = Statistics.signFlipSmallestP(count: changed)
            // Planned from how much the messages' scores differ from one another: a change of engine or pack moves a
            // message's score by about as much as messages differ.
            check.powerBasis = .signFlipDifference(spread: Statistics.standardDeviation(items.map(\.base)), count: items.count)
            check.rule = "mean per-message change of chrF (\(changed) of \(items.count) messages changed; an item's repeats as one unit), sign-flip "
                + "test of the changed messages against a change of \(String(format: "%g", thresholds.translationChrFPoints)) points over all (exact when "
                + "the changes are symmetric about their mean), one-sided, Holm within its share of α; p is against no change"
            return check
        }
    }
}
