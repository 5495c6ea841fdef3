import Generation
import Support
import Checks
import Foundation

/// The tail check: how much slower the slowest tenth of items got, paired per item. The mean-ratio check
/// dilutes a slowdown confined to the slowest items (doubling the slowest 10% reads ×1.07 there), and a
/// bootstrap of a p95 over a hundred items is bimodal and blind to it; this check reads the slow items
/// themselves.
///
/// The items are ranked by the geometric mean of their two latencies, √(base·current), which is the same
/// whichever run is called base: under no change the selection does not favour either sign of the items'
/// log-ratios, so the exact sign-flip test on the selected items keeps its size.
///
/// Between the interleaved blocks of a same-runner A/B, each item's log-ratio is read relative to the mean log-ratio
/// of the rest of its block: drift that moved a whole block (and a uniform slowdown, which the mean-ratio checks
/// judge) is taken out, and what is left is how much more the slowest items slowed than the rest of their block.
package enum TailLatency {
    /// The share of items the check reads.
    static let share = 0.1
    /// Below this the slowest tenth is too few items for any outcome to reach a family's level: not judged.
    package static let minimumItems = 40

    /// One check over the pairs with a model reply in both runs; nil when there are none.
    static func check(_ paired: [GenerationComparer.Pair], key: CheckKey, thresholds: Thresholds, machine: MachineAdjustment,
                      blocks: GenerationComparer.Blocks? = nil) -> MetricCheck? {
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
        // An item's repeats are one unit: its geometric mean latency in each run.
        let items = perItem.keys.sorted()
        let base = items.map { Statistics.mean(perItem[$0]!.base) }, current = items.map { Statistics.mean(perItem[$0]!.current) }
        var logRatios = zip(current, base).map { $0 - $1 }
        let count = max(1, Int((Double(items.count) * share).rounded(.up)))
        // The slowest by √(base·current), ties by id: the same set whichever run is base.
        let slowest = items.indices.sorted { (base[$0] + current[$0], items[$1]) > (base[$1] + current[$1], items[$0]) }.prefix(count)
        // Relative to the item's block: its log-ratio less the mean log-ratio of the rest of that block (the items not
        // read; every item of the block when all were), so the slowed items do not lift their own reference.
        let grouped = blocks.map { blocks in Dictionary(grouping: items.indices, by: { blocks.block(of: items[$0]) }) }
        let relative = (grouped?.count ?? 0) > 1
        if let grouped, relative {
            let read = Set(slowest)
            let shifts = grouped.mapValues { members in
                let rest = members.filter { !read.contains($0) }
                return Statistics.mean((rest.isEmpty ? members : rest).map { logRatios[$0] })
            }
            for (block, members) in grouped { for index in members { logRatios[index] -= shifts[block]! } }
        }
        let selected = slowest.map { logRatios[$0] }
        let measured = slowest.map { exp(Statistics.mean(perItem[items[$0]]!.measured)) }
        let threshold = thresholds.latencyRatio
        var check = MetricCheck(metric: MetricName.slowestTenth, key: key, kind: .latencyTail, polarity: .lowerIsBetter, base: Statistics.mean(measured),
                                current: Statistics.mean(slowest.map { exp(current[$0]) }), delta: exp(Statistics.mean(selected)) - 1,
                                interval: nil, pValue: nil, threshold: threshold, n: items.count, status: .unchanged, rule: "")
        check.lost = paired.filter { !$0.bothModel }.count
        check.movedCandidates = .ratios(slowest.map { (items[$0], exp(logRatios[$0])) }, threshold: threshold)
        guard items.count >= minimumItems else {
            check.rule = "mean log-ratio over the slowest tenth: fewer than \(minimumItems) items with a model reply in both runs, not judged"
            check.powerNote = "cannot see a change of \(check.thresholdText) with n = \(items.count): fewer than \(minimumItems) items, not judged"
            return check
        }
        let spread = machine.relativeInterval(mix)
        let widen = (up: log(spread.high), down: -log(spread.low))
        let boot = Statistics.bootstrapMeans(selected)
        check.interval = .init(low: exp(Statistics.quantile(sorted: boot, 0.025)) / spread.high, high: exp(Statistics.quantile(sorted: boot, 0.975)) / spread.low)
        check.regressionP = Statistics.signFlipP(selected, beyond: log(1 + threshold) + widen.up, above: true)
        check.improvementP = Statistics.signFlipP(selected, beyond: log(1 - threshold) - widen.down, above: false)
        check.pValue = min(check.regressionP, check.improvementP)
        // Power from the noise of every item's log-ratio, robustly (a slowdown of a tenth leaves the median absolute
        // deviation where it was), for the exact test on the tenth the check reads: its p cannot go below 2⁻ᵏ for k items.
        // Relative to its block, an item read also carries the noise of its reference (the mean of the rest of its block,
        // about m items: variance × (1 + 1/m)), while the rest, each inside its own reference, spread less (× (1 − 1/m)).
        let perReference = Double(max(2, items.count - count)) / Double(grouped?.count ?? 1)
        let reference = relative ? ((1 + 1 / perReference) / (1 - 1 / perReference)).squareRoot() : 1
        check.powerBasis = .signFlip(spread: Self.robustSpread(logRatios) * reference, count: count)
        check.smallestP = Statistics.signFlipSmallestP(count: count)
        let against = relative ? ", each relative to the mean log-ratio of the rest of its block (\(grouped!.count) blocks: how much more the slowest slowed than the rest)" : ""
        check.rule = "mean log-ratio CURRENT/BASE of total_ms over the slowest tenth of items (\(count) of \(items.count), ranked by √(base·current); "
            + "an item's repeats as one unit)\(against), exact sign-flip test: regression when significantly above \(1 + threshold), improvement when below \(1 - threshold) "
            + "(Holm within the latency tail's share of α)" + machine.ruleNote(mix, what: "base items")
        return check
    }

    /// 1.4826 × the median absolute deviation: the standard deviation of normal noise, unmoved by a changed tenth.
    static func robustSpread(_ values: [Double]) -> Double {
        let median = Statistics.quantile(values, 0.5)
        return 1.4826 * Statistics.quantile(values.map { abs($0 - median) }, 0.5)
    }
}
