import Support
import Checks
import Foundation
import Generation

/// What a compare can see at its n and the level each check is really tested at, said before what it saw: a green
/// verdict means something only next to "this job sees a 27-point drop in a 45-item language". Each phrase is the
/// minimum detectable effect (80% power, under the alternative) of the check people ask about, at the level the change
/// it names would be tested at — a language's accuracy moved by a recognizer change in every config at once shares
/// its kind's α among those correlated checks — and, where that is more than the threshold asks, how many items or
/// blocks would see the threshold.
extension Comparison {
    package var visibility: [String] {
        var out: [String] = []
        let planned = checks.filter { $0.mde != nil && $0.level != nil }
        let accuracy = planned.filter { $0.metric == MetricName.accuracy }
        // A recognizer change moves a language in every config at once, and with it every config-wide detection check
        // (accuracy, and the cost-weighted error where there is one): the change makes that many correlated checks
        // testable, and Holm's first step divides the share among them.
        let configs = Set(accuracy.compactMap { $0.key[.config] }).count
        let configWide = planned.filter { $0.kind == .detection && $0.key[.lang] == nil }
        // The language the compare sees least: fewest items, or most churn (items flipped both ways widen what it can see).
        let family = configWide.count + max(1, configs), level = share(of: .detection) / Double(family)
        if let check = accuracy.filter({ $0.key[.lang] != nil }).map({ Self.planned($0, level: level) })
            .max(by: { ($0.mde ?? 1, -$0.n) < ($1.mde ?? 1, -$1.n) }) {
            out.append("a \(check.n)-item language's accuracy" + (configs > 1 ? " in all \(configs) configs at once" : "") + ": "
                       + Self.rate(check, unit: "items", saw: check.fixed.map { " at the churn it saw (\($0) fixed, \(check.broken ?? 0) broken)" } ?? ""))
        }
        if let check = accuracy.filter({ $0.key[.lang] == nil }).max(by: { $0.n < $1.n }) {
            // A change spread thin over a config's languages moves its config-wide checks alone.
            let family = configWide.filter { $0.key[.config] == check.key[.config] }.count
            out.append("a config's accuracy over \(check.n) items, spread thin over its languages: "
                       + Self.rate(Self.planned(check, level: share(of: .detection) / Double(max(1, family))), unit: "items"))
        }
        let served = planned.filter { $0.metric == MetricName.served && $0.key[.lang] != nil }
        if let check = served.min(by: { $0.n < $1.n }) {
            // One language losing service on a route moves its own check, the route's and, when a fallback took it, that
            // reason's rate: three tests.
            out.append("a \(check.n)-person language's service: " + Self.rate(Self.planned(check, level: share(of: .outcomes) / 3), unit: "people"))
        }
        for (metric, name) in [(MetricName.latency, "latency"), (MetricName.slowestTenth, "the slowest tenth"), (MetricName.tokensGenerated, "tokens generated")] {
            guard let check = planned.filter({ $0.metric == metric }).max(by: { $0.n < $1.n }) else { continue }
            // Of the largest route judged: a route left unjudged (most of its requests collapsed) is said, not passed over.
            let unjudged = metric == MetricName.tokensGenerated ? [] : (latencyNotJudged?.routes ?? [])
            out.append("\(name) (\(check.key.description)): " + Self.ratio(check)
                       + (unjudged.isEmpty ? "" : " (\(unjudged.joined(separator: ", ")) not judged: most of its requests collapsed)"))
        }
        return out
    }

    /// The checks that cannot see their threshold, one line per metric and slicing: `24 detection.accuracy checks by config ×
    /// lang cannot see 2.0 points: n 45–212; 80% power needs 10.20–40.00 points; about 500–900 items would`.
    var blindSummary: [String] {
        let blind = checks.filter { $0.powerNote?.hasPrefix("cannot see") == true }
        let groups = Dictionary(grouping: blind) { check in
            "\(check.metric) " + check.key.values.keys.sorted().map(\.rawValue).joined(separator: " × ") + " \(check.thresholdText)"
        }
        return groups.keys.sorted().map { name in
            let group = groups[name]!.sorted { $0.n < $1.n }
            let first = group[0], last = group[group.count - 1]
            let sliced = first.key.values.isEmpty ? "" : " by " + first.key.values.keys.sorted().map(\.rawValue).joined(separator: " × ")
            let count = group.count == 1 ? "1 \(first.metric) check" : "\(group.count) \(first.metric) checks"
            var text = "\(count)\(sliced) cannot see \(first.thresholdText): n " + (first.n == last.n ? "\(first.n)" : "\(first.n)–\(last.n)")
            let planned = group.compactMap(\.mde).sorted()
            if let low = planned.first, let high = planned.last {
                let paired: Bool = switch first.powerBasis { case .paired?, .signFlipDifference?: true; default: false }
                let shown = { (mde: Double) in paired ? String(format: "%.2f", mde * 100) : String(format: "%+.1f%%", mde * 100) }
                text += "; 80% power needs " + (low == high ? shown(low) : "\(shown(low))–\(shown(high))") + (paired ? " points" : " beyond the threshold")
            }
            let untestable = group.filter { $0.mde == nil }.count
            if untestable > 0 {
                text += untestable < group.count ? "; for \(untestable) of them no outcome of the test can reach its level"
                    : group.count == 1 ? "; no outcome of its test can reach its level" : "; no outcome of their tests can reach their level"
            }
            let needed = [first, last].compactMap(Self.itemsNeeded)
            if let low = needed.min(), let high = needed.max() {
                text += "; about " + (Double(high) <= 1.05 * Double(low) ? "\(high)" : "\(low)–\(high)") + " items would"
            }
            return text
        }
    }

    /// The share of α `kind` has, or would have were it testable (its weight over the weights of the kinds judged).
    func share(of kind: MetricCheck.Kind) -> Double {
        if let share = alphaShares[kind.rawValue] { return share }
        let judged = Set(checks.filter { $0.level != nil }.map(\.kind)).union([kind])
        return thresholds.alpha * kind.weight / judged.map(\.weight).reduce(0, +)
    }

    /// `check` planned at `level` (the level a change of the kind the phrase names would be tested at).
    static func planned(_ check: MetricCheck, level: Double) -> MetricCheck {
        guard let basis = check.powerBasis else { return check }
        var check = check
        check.level = level
        check.mde = Statistics.minimumDetectableEffect(basis, alpha: level)
        return check
    }

    /// `26.67 points (12 of 45 items)`, then `saw` (the churn it saw), then `; 2.0 points needs about 600 items`.
    static func rate(_ check: MetricCheck, unit: String, saw: String = "") -> String {
        let mde = check.mde!, moved = Int((mde * Double(check.n)).rounded(.up))
        var text = (moved >= check.n ? "no change short of all \(check.n) \(unit)" : String(format: "%.2f points (%d of %d %@)", mde * 100, moved, check.n, unit)) + saw
        if mde > check.threshold, let needed = itemsNeeded(check) {
            text += "; \(check.thresholdText) needs about \(needed) \(unit)"
        }
        return text
    }

    /// `×1.38`, and the blocks that would see twice the threshold when more are needed.
    static func ratio(_ check: MetricCheck) -> String {
        let seen = (1 + check.threshold) * (1 + check.mde!)
        var text = String(format: "×%.2f", seen)
        if case .blockMeans(let se, let blocks)? = check.powerBasis, let level = check.level, seen > 1 + 2 * check.threshold {
            // Drift between blocks is the spread: the standard error of their mean falls as 1/√blocks.
            let target = log(1 + 2 * check.threshold) - log(1 + check.threshold)
            if let needed = (blocks + 1...64).first(where: { b in
                let scaled = se * (Double(blocks) / Double(b)).squareRoot()
                return log(1 + Statistics.minimumDetectableEffect(.blockMeans(standardError: scaled, blocks: b), alpha: level)) <= target
            }) {
                text += String(format: "; ×%.2f needs about %d blocks", 1 + 2 * check.threshold, needed)
            }
        }
        if case .signFlip(let spread, _)? = check.powerBasis, TokenCost.metrics.contains(check.metric), let level = check.level,
           seen > 1 + 2 * check.threshold {
            // Each item's spread stays; the ratio's standard error falls as 1/√items.
            let target = log(1 + 2 * check.threshold) - log(1 + check.threshold)
            if let needed = smallest(from: check.n, where: { n in
                log(1 + Statistics.minimumDetectableEffect(.signFlip(spread: spread, count: n), alpha: level)) <= target
            }) {
                text += String(format: "; ×%.2f needs about %d items", 1 + 2 * check.threshold, needed)
            }
        }
        return text
    }

    /// The smallest n from `start` up for which `sees` holds, to about 1% (doubling, then bisection; nil past a million).
    static func smallest(from start: Int, where sees: (Int) -> Bool) -> Int? {
        var high = max(start, 1)
        while !sees(high) {
            high *= 2
            if high > 1_000_000 { return nil }
        }
        var low = high / 2
        while high - low > max(1, high / 100) {
            let middle = (low + high) / 2
            if sees(middle) { high = middle } else { low = middle }
        }
        return high
    }

    /// The items a paired check would need for its mde to reach its threshold at the same level and churn (doubling,
    /// then bisection; nil past a million).
    static func itemsNeeded(_ check: MetricCheck) -> Int? {
        guard case .paired(let churn, _, let designEffect)? = check.powerBasis, let level = check.level, check.threshold > 0 else { return nil }
        return smallest(from: check.n) { n in
            Statistics.minimumDetectableEffect(.paired(churn: churn, n: n, designEffect: designEffect), alpha: level) <= check.threshold
        }
    }
}
