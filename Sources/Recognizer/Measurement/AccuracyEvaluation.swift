import Support

/// Accuracy of a detector on labelled texts, per slice and language: recall, precision, and accuracy
/// macro-averaged over languages (abstentions count as errors). Counting is `LabelCounts`'s, the same
/// as the harness's detection metrics.
public struct AccuracyEvaluation: Sendable {
    /// Slice name → per-language counts; the slice `all` covers every item.
    public private(set) var slices: [String: LabelCounts<String>] = [:]
    /// Items answered wrongly: (item, prediction or nil).
    public private(set) var errors: [(item: LabeledText, predicted: String?)] = []

    public init() {}

    /// Scores `items` with `predict`, which returns a language or nil (abstention).
    public init(items: [LabeledText], predict: (String) -> String?) {
        for item in items { add(item, predicted: predict(item.text)) }
    }

    public mutating func add(_ item: LabeledText, predicted: String?) {
        for slice in [item.slice, "all"] {
            slices[slice, default: LabelCounts()].add(gold: item.language, predicted: predicted)
        }
        if predicted != item.language { errors.append((item, predicted)) }
    }

    /// Items in the slice.
    public func items(_ slice: String = "all") -> Int { slices[slice]?.total ?? 0 }

    /// Accuracy macro-averaged over the languages that have items in the slice.
    public func macroAccuracy(_ slice: String = "all") -> Double {
        slices[slice]?.macroAverage(\.recall) ?? 0
    }

    /// Share of the slice's items answered correctly.
    public func microAccuracy(_ slice: String = "all") -> Double {
        guard let counts = slices[slice], counts.total > 0 else { return 0 }
        return Double(counts.correct) / Double(counts.total)
    }

    /// Slices in a stable order: the length slices first, then the rest by name, `all` last.
    public var sliceNames: [String] {
        let known = ["single-words", "word-pairs", "sentences"]
        return known.filter { slices[$0] != nil } + slices.keys.filter { !known.contains($0) && $0 != "all" }.sorted()
            + (slices["all"] != nil ? ["all"] : [])
    }
}
