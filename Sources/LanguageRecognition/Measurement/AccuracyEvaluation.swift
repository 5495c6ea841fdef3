/// Accuracy of a detector on labelled texts, per slice and language: recall, precision, and accuracy
/// macro-averaged over languages (abstentions count as errors).
public struct AccuracyEvaluation: Sendable {
    /// Counts of one language within one slice.
    public struct LanguageCounts: Sendable, Equatable {
        public var items = 0
        public var correct = 0
        /// Items of other languages predicted as this one.
        public var falsePositives = 0

        public var recall: Double { items == 0 ? 0 : Double(correct) / Double(items) }
        public var precision: Double {
            correct + falsePositives == 0 ? 0 : Double(correct) / Double(correct + falsePositives)
        }
    }

    /// Slice name → language → counts; the slice `all` covers every item.
    public private(set) var slices: [String: [String: LanguageCounts]] = [:]
    /// Items answered wrongly: (item, prediction or nil).
    public private(set) var errors: [(item: LabeledText, predicted: String?)] = []

    public init() {}

    /// Scores `items` with `predict`, which returns a language or nil (abstention).
    public init(items: [LabeledText], predict: (String) -> String?) {
        for item in items { add(item, predicted: predict(item.text)) }
    }

    public mutating func add(_ item: LabeledText, predicted: String?) {
        for slice in [item.slice, "all"] {
            var table = slices[slice, default: [:]]
            table[item.language, default: LanguageCounts()].items += 1
            if predicted == item.language {
                table[item.language, default: LanguageCounts()].correct += 1
            } else if let predicted {
                table[predicted, default: LanguageCounts()].falsePositives += 1
            }
            slices[slice] = table
        }
        if predicted != item.language { errors.append((item, predicted)) }
    }

    /// Accuracy macro-averaged over the languages that have items in the slice.
    public func macroAccuracy(_ slice: String = "all") -> Double {
        let languages = (slices[slice] ?? [:]).values.filter { $0.items > 0 }
        return languages.isEmpty ? 0 : languages.map(\.recall).reduce(0, +) / Double(languages.count)
    }

    /// Share of the slice's items answered correctly.
    public func microAccuracy(_ slice: String = "all") -> Double {
        let counts = (slices[slice] ?? [:]).values
        let items = counts.map(\.items).reduce(0, +)
        return items == 0 ? 0 : Double(counts.map(\.correct).reduce(0, +)) / Double(items)
    }

    /// Slices in a stable order: the length slices first, then the rest by name, `all` last.
    public var sliceNames: [String] {
        let known = ["single-words", "word-pairs", "sentences"]
        return known.filter { slices[$0] != nil } + slices.keys.filter { !known.contains($0) && $0 != "all" }.sorted()
            + (slices["all"] != nil ? ["all"] : [])
    }
}
