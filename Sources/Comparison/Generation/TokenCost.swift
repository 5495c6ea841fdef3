import Generation
import Support
import Checks
import Foundation

/// The token cost gate, per item × route × variant, summed over a record's requests. What no sample can
/// move is compared exactly; what a sample moves is tested.
///
/// Only the prompt tokens of *fixed* prompts — direct generation and the pivot's translate-in, built from the
/// corpus alone — are the same on any runner: with a cold cache the server evaluates exactly the tokens the
/// prompt tokenizes to. Generated tokens are not: another CPU's SIMD kernels move the logits in their last
/// bits and a seeded draw then picks another token (86 of 97 direct replies at temperature 0.7, 25 of 85
/// greedy translations), and any prompt edit moves them the same way. So are the prompt tokens of prompts
/// that embed generated text (the pivot's generate and translate-out). Those are paired statistical checks
/// of the ratio of totals over items, with the threshold as a margin, inside the family-wise correction.
package enum TokenCost {
    /// The metric names of the token checks (rendered as counts, not percentages).
    package static let metrics = Set(Measure.allCases.map(\.rawValue))

    enum Measure: String, CaseIterable {
        case fixedPrompt = "generation.prompt_tokens_fixed"
        case sampledPrompt = "generation.prompt_tokens_of_sampled_text"
        case generated = "generation.tokens_generated"

        /// Exact: no sample moves it.
        var exact: Bool { self == .fixedPrompt }

        /// The requests of `record` this measure counts, by name.
        /// The model's requests the measure counts (a translation engine's are not the model's tokens).
        func stages(_ record: GenerationRecord) -> [(name: String, stage: StageTiming?)] {
            let all: [(name: String, stage: StageTiming?)] = switch (self, record.route) {
            case (.fixedPrompt, .direct): [("generate", record.generate)]
            case (.fixedPrompt, .pivot): [("translate-in", record.translateIn)]
            case (.sampledPrompt, .direct): []
            case (.sampledPrompt, .pivot): [("generate", record.generate), ("translate-out", record.translateOut)]
            case (.generated, _): [("translate-in", record.translateIn), ("generate", record.generate), ("translate-out", record.translateOut)]
            }
            return all.filter { $0.stage?.engine == nil }
        }

        func count(_ stage: StageTiming) -> Int? {
            self == .generated ? stage.completionTokens : stage.promptProcessed
        }

        /// The record's counted requests summed; nil when any of them has no count.
        func total(_ record: GenerationRecord) -> Int? {
            stages(record).compactMap(\.stage).reduce(0 as Int?) { sum, stage in sum.flatMap { sum in count(stage).map { sum + $0 } } }
        }
    }

    /// Items listed per check: enough to find the cause, short enough for a PR comment.
    static let listedItems = 10

    /// One check per measure over the pairs with a model reply in both runs (a fallback's requests stop
    /// where it failed, so its count says when, not what a reply costs); nil when there are none.
    /// `sameTokenizer` is false when the runs' model files differ or cannot be told apart: then no count is exact.
    static func checks(_ paired: [GenerationComparer.Pair], key: CheckKey, threshold: Double, sameTokenizer: Bool = true) -> [MetricCheck] {
        let replied = paired.filter(\.bothModel)
        return Measure.allCases.compactMap { measure in
            guard replied.contains(where: { !measure.stages($0.base).isEmpty }) else { return nil }
            var check = measure.exact ? exact(replied, measure: measure, key: key, threshold: threshold, sameTokenizer: sameTokenizer)
                : tested(replied, measure: measure, key: key, threshold: threshold)
            check?.lost = paired.count - replied.count
            return check
        }
    }

    /// The check's figures, before any verdict; nil when there is nothing to count.
    private static func figures(_ paired: [GenerationComparer.Pair], measure: Measure, key: CheckKey, threshold: Double) -> MetricCheck? {
        let counted = paired.filter { measure.total($0.base) != nil && measure.total($0.current) != nil }
        let base = counted.compactMap { measure.total($0.base) }.reduce(0, +)
        let current = counted.compactMap { measure.total($0.current) }.reduce(0, +)
        guard base > 0 || current > 0 || counted.count < paired.count else { return nil }
        let delta = base > 0 ? Double(current) / Double(base) - 1 : .nan
        return MetricCheck(metric: measure.rawValue, key: key, kind: .tokenCost, polarity: .lowerIsBetter, base: Double(base), current: Double(current),
                           delta: delta, interval: nil, pValue: nil, threshold: threshold, n: paired.count, status: .unchanged, rule: "")
    }

    /// Why a measure's counts cannot be judged at all, or nil.
    private static func unjudgeable(_ paired: [GenerationComparer.Pair], measure: Measure) -> String? {
        let unknown = paired.filter { measure.total($0.base) == nil || measure.total($0.current) == nil }
        if !unknown.isEmpty { return "not judged: the server gave no token counts for \(unknown.count) record(s)" }
        // A request that reused cached prompt tokens under the cold policy was not evaluated from scratch:
        // its count depends on what ran before it, so the totals are shown but not judged.
        let warm = paired.filter { pair in [pair.base, pair.current].contains { $0.cachePolicy == .cold && $0.stages.contains { ($0.promptCached ?? 0) > 0 } } }
        if measure != .generated && !warm.isEmpty { return "not judged: \(warm.count) record(s) reused cached prompt tokens under the cold policy" }
        return nil
    }

    static func exact(_ paired: [GenerationComparer.Pair], measure: Measure, key: CheckKey, threshold: Double, sameTokenizer: Bool) -> MetricCheck? {
        guard var check = figures(paired, measure: measure, key: key, threshold: threshold) else { return nil }
        let changed = paired.filter { measure.total($0.base) != measure.total($0.current) }
        check.rule = "exact totals of the prompt tokens of fixed prompts (direct generate, pivot translate-in) over the same \(paired.count) records "
            + "with a model reply in both runs (cold cache: the same on any runner with the same tokenizer); "
        if let reason = unjudgeable(paired, measure: measure) { check.rule += reason; return check }
        guard sameTokenizer else {
            check.rule += "not judged: the runs' model files differ or were not recorded, so their tokenizers may differ"
            return check
        }
        check.rule += "regression above +\(Self.percent(threshold)), improvement below −\(Self.percent(threshold)); "
            + "\(changed.count) of \(paired.count) records changed"
        check.powerBasis = .exact  // no sampling noise: spends no α, and sees any change past the threshold
        check.regressionP = check.delta > threshold ? 0 : 1
        check.improvementP = check.delta < -threshold ? 0 : 1
        check.changes = changed.prefix(listedItems).map { Self.change($0, measure: measure) }
        check.movedCandidates = moved(changed, measure: measure)
        return check
    }

    /// The ratio of totals CURRENT/BASE against the threshold as a margin, by an exact sign-flip test over items (an
    /// item's repeats summed into one unit): a ratio R is rejected above when Σ(currentᵢ − R·baseᵢ) is beyond what
    /// flipping the signs of those terms gives. Under no change an item's two counts are exchangeable (two draws of
    /// the same sampler: another CPU, another seed), so the test holds its size whatever the counts' tails — a reply
    /// of 5 tokens that became 28 weighs as it is, in either direction, where a bootstrap at forty items read such a
    /// tail as a shift. The interval is the set of ratios neither one-sided test rejects at 2.5%.
    static func tested(_ paired: [GenerationComparer.Pair], measure: Measure, key: CheckKey, threshold: Double) -> MetricCheck? {
        guard var check = figures(paired, measure: measure, key: key, threshold: threshold) else { return nil }
        let what = measure == .generated ? "generated tokens (every request)" : "prompt tokens of prompts that embed generated text (pivot generate, translate-out)"
        check.rule = "ratio of total \(what), CURRENT/BASE, exact sign-flip test over items; "
        if let reason = unjudgeable(paired, measure: measure) { check.rule += reason; return check }
        var units: [String: (base: Double, current: Double)] = [:]
        for pair in paired {
            units[pair.base.itemID, default: (0, 0)].base += Double(measure.total(pair.base) ?? 0)
            units[pair.base.itemID, default: (0, 0)].current += Double(measure.total(pair.current) ?? 0)
        }
        let items = units.keys.sorted()
        guard items.count >= Statistics.minimumForInterval, check.base > 0 else {
            check.rule += "fewer than \(Statistics.minimumForInterval) items with counts in both runs, not judged"
            return check
        }
        let base = items.map { units[$0]!.base }, current = items.map { units[$0]!.current }
        judgeRatioOfTotals(&check, base: base, current: current, threshold: threshold)
        check.rule += "regression when significantly above ×\(1 + threshold), improvement when below ×\(1 - threshold) (Holm within token cost's share of α); "
            + "sampled text differs between CPUs and after any prompt edit, so these counts are tested, not compared exactly"
        let changed = paired.filter { measure.total($0.base) != measure.total($0.current) }
        check.movedCandidates = moved(changed, measure: measure)
        return check
    }

    /// One-sided sign-flip p that the ratio of totals lies above `ratio` (`above`) or below it.
    static func ratioP(base: [Double], current: [Double], ratio: Double, above: Bool, draws: Int = 20_000,
                       enumerateUpTo limit: Int = Statistics.signFlipEnumerationLimit) -> Double {
        Statistics.signFlipP(zip(current, base).map { $0 - ratio * $1 }, beyond: 0, above: above, draws: draws, enumerateUpTo: limit, stopAtHits: 40)
    }

    /// The standard error of the log of the ratio of totals, for planning: the spread of the terms Σ(currentᵢ − R·baseᵢ) at
    /// the estimate R, relative to the base total.
    static func logRatioStandardError(base: [Double], current: [Double]) -> Double {
        let estimate = current.reduce(0, +) / base.reduce(0, +)
        let terms = zip(current, base).map { $0 - estimate * $1 }
        return terms.map { $0 * $0 }.reduce(0, +).squareRoot() / max(1, base.reduce(0, +)) / max(estimate, 1e-9)
    }

    /// What the mde is planned from: the exact sign-flip test of the n items' terms (the noncentral t past the
    /// self-normalised sum's critical value, as for any sign-flip check), each term's spread √n standard errors. The
    /// normal shortcut z₁₋α + z₀.₈ promised 80% and delivered 65% at forty items of heavy-tailed reply lengths.
    static func powerBasis(base: [Double], current: [Double]) -> Statistics.PowerBasis {
        .signFlip(spread: logRatioStandardError(base: base, current: current) * Double(base.count).squareRoot(), count: base.count)
    }

    /// Sets the check's p-values, interval (test inversion, by bisection on the log-ratio) and power basis.
    static func judgeRatioOfTotals(_ check: inout MetricCheck, base: [Double], current: [Double], threshold: Double) {
        let estimate = current.reduce(0, +) / base.reduce(0, +)
        // Only an item whose counts differ carries a sign: with none, nothing is tested (and nothing is computed).
        let changed = zip(current, base).filter { $0 != $1 }.count
        check.smallestP = max(Statistics.signFlipSmallestP(count: changed), 1.0 / 20_001)
        guard changed > 0 else {
            (check.regressionP, check.improvementP, check.pValue) = (1, 1, 1)
            check.interval = .init(low: 1, high: 1)
            check.powerBasis = .logRatio(standardError: 0)
            return
        }
        check.regressionP = ratioP(base: base, current: current, ratio: 1 + threshold, above: true)
        check.improvementP = ratioP(base: base, current: current, ratio: 1 - threshold, above: false)
        check.pValue = min(check.regressionP, check.improvementP)
        let standardError = logRatioStandardError(base: base, current: current)
        // The interval's ends: the ratios at which a one-sided test's p crosses 2.5% (fewer draws: a figure, not a verdict),
        // by bisection inside a bracket of six standard errors, widened until its far end is rejected.
        func rejects(_ logRatio: Double, above: Bool) -> Bool {
            ratioP(base: base, current: current, ratio: exp(logRatio), above: above, draws: 1_000, enumerateUpTo: 12) <= 0.025
        }
        func end(above: Bool) -> Double {
            guard estimate > 0 else { return 0 }
            let direction = above ? -1.0 : 1.0
            var width = max(6 * standardError, 0.01)
            while !rejects(log(estimate) + direction * width, above: above) && width < 3 { width *= 2 }
            var (inside, outside) = (log(estimate), log(estimate) + direction * width)
            for _ in 0..<8 {  // to 1/256 of the bracket: well inside the two decimals the interval is printed with
                let middle = (inside + outside) / 2
                if rejects(middle, above: above) { outside = middle } else { inside = middle }
            }
            return exp(inside)
        }
        check.interval = .init(low: end(above: true), high: end(above: false))
        check.powerBasis = powerBasis(base: base, current: current)
    }

    private static func moved(_ changed: [GenerationComparer.Pair], measure: Measure) -> MovedCandidates {
        let item = { (pair: GenerationComparer.Pair, change: String) in
            MovedItem(item: pair.base.itemID, repeatIndex: pair.base.repeatIndex, change: change, detail: Self.change(pair, measure: measure, named: false))
        }
        return MovedCandidates(worse: changed.filter { (measure.total($0.current) ?? 0) > (measure.total($0.base) ?? 0) }.map { item($0, "more tokens") },
                               better: changed.filter { (measure.total($0.current) ?? 0) < (measure.total($0.base) ?? 0) }.map { item($0, "fewer tokens") })
    }

    /// `ru-03 (repeat 0): 310 → 510 (translate-in +200)`.
    static func change(_ pair: GenerationComparer.Pair, measure: Measure, named: Bool = true) -> String {
        let moved = zip(measure.stages(pair.base), measure.stages(pair.current)).compactMap { old, new -> String? in
            let a = old.stage.flatMap(measure.count) ?? 0, b = new.stage.flatMap(measure.count) ?? 0
            return a == b ? nil : "\(old.name) \(b - a > 0 ? "+" : "")\(b - a)"
        }
        let repeatText = pair.base.repeatIndex > 0 ? " (repeat \(pair.base.repeatIndex))" : ""
        let total = { (record: GenerationRecord) in measure.total(record).map(String.init) ?? "unknown" }
        let figures = "\(total(pair.base)) → \(total(pair.current)) (\(moved.joined(separator: ", ")))"
        return named ? "\(pair.base.itemID)\(repeatText): " + figures : figures
    }

    package static func percent(_ fraction: Double) -> String {
        let value = fraction * 100
        // Int(exactly:) is nil past Int's range (and for NaN): the Double prints as it is instead of trapping.
        if let whole = Int(exactly: value) { return "\(whole)%" }
        return "\(value)%"
    }
}
