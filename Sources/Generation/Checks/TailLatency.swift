import BenchSupport
import Foundation

/// The tail check: the p95 of per-item latency, CURRENT over BASE, paired over items. The mean-ratio
/// check dilutes a slowdown confined to the slowest items (doubling the slowest 10% reads ×1.07 there);
/// this one reads it where it happens.
package enum TailLatency {
    package static let metric = "generation.latency_p95"
    static let quantile = 0.95
    /// Below this the p95 rests on the one or two slowest items (40 items leave two above it): not judged.
    package static let minimumItems = 40

    /// One check over the pairs with a model reply in both runs; nil when there are none.
    static func check(_ paired: [GenerationComparer.Pair], key: String, thresholds: Thresholds, machine: MachineAdjustment) -> MetricCheck? {
        var perItem: [String: (base: [Double], current: [Double], measured: [Double])] = [:]
        var mix = LatencyMix.zero
        for pair in paired where pair.bothModel && pair.base.totalMs > 0 && pair.current.totalMs > 0 {
            // Each base item on the current machine's scale, by its own mix of prompt processing and generation.
            let own = LatencyMix.total(pair.base)
            mix = mix + own
            perItem[pair.base.itemID, default: ([], [], [])].base.append(log(pair.base.totalMs * machine.factor(own)))
            perItem[pair.base.itemID, default: ([], [], [])].current.append(log(pair.current.totalMs))
            perItem[pair.base.itemID, default: ([], [], [])].measured.append(log(pair.base.totalMs))
        }
        guard !perItem.isEmpty else { return nil }
        // An item's repeats are one unit: its geometric mean latency in each run, resampled as a pair.
        let items = perItem.keys.sorted()
        let base = items.map { exp(Statistics.mean(perItem[$0]!.base)) }, current = items.map { exp(Statistics.mean(perItem[$0]!.current)) }
        let (before, after) = (Statistics.quantile(base, quantile), Statistics.quantile(current, quantile))
        let threshold = thresholds.latencyRatio
        // The base figure as measured; the delta on the current machine's scale.
        let measured = Statistics.quantile(items.map { exp(Statistics.mean(perItem[$0]!.measured)) }, quantile)
        var check = MetricCheck(metric: metric, key: key, polarity: .lowerIsBetter, base: measured, current: after,
                                delta: after / before - 1, interval: nil, pValue: nil, threshold: threshold, n: items.count,
                                status: .unchanged, rule: "")
        check.lost = paired.filter { !$0.bothModel }.count
        check.movedCandidates = .ratios(items.indices.map { (items[$0], current[$0] / base[$0]) }, threshold: threshold)
        guard items.count >= minimumItems else {
            check.rule = "paired p95 ratio: fewer than \(minimumItems) items with a model reply in both runs, not judged"
            check.powerNote = "cannot see a change of \(check.thresholdText) with n = \(items.count): fewer than \(minimumItems) items, not judged"
            return check
        }
        let boot = Statistics.bootstrapPairedQuantileLogRatios(base: base, current: current, quantile)
        GenerationComparer.judgeLogRatio(&check, boot: boot, spread: machine.relativeInterval(mix), threshold: threshold)
        check.rule = "ratio of the p95 of per-item total_ms (geometric mean over an item's repeats), CURRENT/BASE, paired bootstrap over items "
            + "(pairs kept together): regression when significantly above \(1 + threshold), improvement when below \(1 - threshold) (Holm across all gating checks)"
            + machine.ruleNote(mix, what: "base items")
        return check
    }
}
