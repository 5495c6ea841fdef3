/// The token cost gate: prompt tokens the server evaluated (`prompt_n`) and tokens generated, per item ×
/// route × variant, summed over the record's requests. With a cold cache and a fixed seed these counts
/// do not depend on the machine, so they are compared exactly, on any runner and under any latency basis:
/// a prompt change that makes the pivot evaluate 200 more tokens per request shows here even when the
/// machines' speeds cannot be compared.
package enum TokenCost {
    /// The metric names of the token checks (rendered as counts, not percentages).
    package static let metrics = Set(Measure.allCases.map(\.rawValue))

    enum Measure: String, CaseIterable {
        case evaluated = "generation.prompt_tokens_evaluated", generated = "generation.tokens_generated"

        /// Nil when the server did not say (an OpenAI-compatible server without `usage`).
        func count(_ stage: StageTiming) -> Int? {
            switch self {
            case .evaluated: stage.promptProcessed
            case .generated: stage.completionTokens
            }
        }

        /// The record's requests summed; nil when any of them has no count.
        func total(_ record: GenerationRecord) -> Int? {
            record.stages.reduce(0 as Int?) { sum, stage in sum.flatMap { sum in count(stage).map { sum + $0 } } }
        }
    }

    /// Items listed per check: enough to find the cause, short enough for a PR comment.
    static let listedItems = 10

    /// One check per measure over the pairs with a model reply in both runs (a fallback's requests stop
    /// where it failed, so its count says when, not what a reply costs); nil when there are none.
    static func checks(_ paired: [GenerationComparer.Pair], key: String, threshold: Double) -> [MetricCheck] {
        let replied = paired.filter(\.bothModel)
        return Measure.allCases.compactMap { measure in
            var check = check(replied, measure: measure, key: key, threshold: threshold)
            check?.lost = paired.count - replied.count
            return check
        }
    }

    static func check(_ paired: [GenerationComparer.Pair], measure: Measure, key: String, threshold: Double) -> MetricCheck? {
        let unknown = paired.filter { measure.total($0.base) == nil || measure.total($0.current) == nil }
        let counted = paired.filter { measure.total($0.base) != nil && measure.total($0.current) != nil }
        let base = counted.compactMap { measure.total($0.base) }.reduce(0, +)
        let current = counted.compactMap { measure.total($0.current) }.reduce(0, +)
        guard base > 0 || current > 0 || !unknown.isEmpty else { return nil }
        let changed = paired.filter { measure.total($0.base) != measure.total($0.current) }
        let delta = base > 0 ? Double(current) / Double(base) - 1 : .infinity
        var check = MetricCheck(metric: measure.rawValue, key: key, polarity: .lowerIsBetter, base: Double(base), current: Double(current),
                                delta: delta, interval: nil, pValue: nil, threshold: threshold, n: paired.count, status: .unchanged, rule: "")
        // A request that reused cached prompt tokens under the cold policy was not evaluated from scratch:
        // its count depends on what ran before it, so the totals are shown but not judged.
        let warm = paired.filter { pair in [pair.base, pair.current].contains { $0.cachePolicy == .cold && $0.stages.contains { ($0.promptCached ?? 0) > 0 } } }
        check.rule = "exact totals over the same \(paired.count) records with a model reply in both runs (cold cache, fixed seed: the same on any runner); "
        if !unknown.isEmpty {
            check.rule += "not judged: the server gave no token counts for \(unknown.count) record(s)"
            return check
        }
        if !warm.isEmpty {
            check.rule += "not judged: \(warm.count) record(s) reused cached prompt tokens under the cold policy"
            return check
        }
        check.rule += "regression above +\(Self.percent(threshold)), improvement below −\(Self.percent(threshold)); "
            + "\(changed.count) of \(paired.count) records changed"
        check.powerBasis = .exact  // no sampling noise: spends no α, and sees any change past the threshold
        check.regressionP = delta > threshold ? 0 : 1
        check.improvementP = delta < -threshold ? 0 : 1
        check.changes = changed.prefix(listedItems).map { Self.change($0, measure: measure) }
        let moved = { (pair: GenerationComparer.Pair, change: String) in
            MovedItem(item: pair.base.itemID, repeatIndex: pair.base.repeatIndex, change: change, detail: Self.change(pair, measure: measure, named: false))
        }
        let more = changed.filter { (measure.total($0.current) ?? 0) > (measure.total($0.base) ?? 0) }
        check.movedCandidates = MovedCandidates(worse: more.map { moved($0, "more tokens") },
                                                better: changed.filter { (measure.total($0.current) ?? 0) < (measure.total($0.base) ?? 0) }.map { moved($0, "fewer tokens") })
        return check
    }

    /// `ru-03 (repeat 0): 310 → 510 (translate-in +200)`.
    static func change(_ pair: GenerationComparer.Pair, measure: Measure, named: Bool = true) -> String {
        let stages = [("translate-in", \GenerationRecord.translateIn), ("generate", \.generate), ("translate-out", \.translateOut)]
        let moved = stages.compactMap { name, path -> String? in
            let a = pair.base[keyPath: path].flatMap(measure.count) ?? 0, b = pair.current[keyPath: path].flatMap(measure.count) ?? 0
            return a == b ? nil : "\(name) \(b - a > 0 ? "+" : "")\(b - a)"
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
