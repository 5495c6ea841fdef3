/// Per-label counts of a classifier over (gold, predicted) pairs: the one place precision and recall
/// are counted, for the harness's detection metrics and the recognizer's training evaluation.
/// A nil prediction (abstention, failure) counts against the gold label's recall and for nobody else.
public struct LabelCounts<Label: Hashable & Sendable>: Sendable {
    /// Counts of one label.
    public struct Counts: Sendable, Equatable {
        /// Items whose gold label is this one.
        public var support = 0
        public var truePositives = 0
        /// Items of other labels predicted as this one.
        public var falsePositives = 0

        public init() {}

        public var recall: Double { support == 0 ? 0 : Double(truePositives) / Double(support) }
        public var precision: Double {
            truePositives + falsePositives == 0 ? 0 : Double(truePositives) / Double(truePositives + falsePositives)
        }
        public var f1: Double {
            let p = precision, r = recall
            return p + r > 0 ? 2 * p * r / (p + r) : 0
        }
    }

    public private(set) var labels: [Label: Counts] = [:]
    public private(set) var total = 0

    public init() {}

    public mutating func add(gold: Label, predicted: Label?) {
        total += 1
        labels[gold, default: Counts()].support += 1
        if predicted == gold {
            labels[gold, default: Counts()].truePositives += 1
        } else if let predicted {
            labels[predicted, default: Counts()].falsePositives += 1
        }
    }

    /// Items answered correctly.
    public var correct: Int { labels.values.map(\.truePositives).reduce(0, +) }

    /// Labels that have gold items (a label only ever predicted has none).
    public var goldLabels: [Label] { labels.filter { $0.value.support > 0 }.map(\.key) }

    /// The mean of `metric` over the labels that have gold items; 0 when there are none. Summed in
    /// ascending order, not the dictionary's (which differs between equal dictionaries), so equal counts
    /// give the same bits and reports are byte-identical.
    public func macroAverage(_ metric: (Counts) -> Double) -> Double {
        let present = labels.values.filter { $0.support > 0 }
        return present.isEmpty ? 0 : present.map(metric).sorted().reduce(0, +) / Double(present.count)
    }
}
