import BenchSupport

/// Accuracy, per-language precision / recall / F1 / false-positive rate and macro-F1 over a set of
/// (gold, predicted) pairs. Abstentions and failures are predictions of no language: they count
/// against recall and accuracy, and as a false positive for nobody.
public struct ClassificationMetrics: Sendable, Hashable, Codable {
    /// Per gold language.
    public struct PerLanguage: Sendable, Hashable, Codable {
        public var lang: LanguageCode
        /// Items whose gold label is this language.
        public var support: Int
        public var truePositives: Int
        public var falsePositives: Int
        public var precision: Double
        public var recall: Double
        public var f1: Double
        /// FP / (FP + TN): how often other languages' items are called this one.
        public var falsePositiveRate: Double

        enum CodingKeys: String, CodingKey {
            case lang, support, truePositives = "true_positives", falsePositives = "false_positives"
            case precision, recall, f1, falsePositiveRate = "false_positive_rate"
        }
    }

    public var n: Int
    public var correct: Int
    public var accuracy: Double
    public var ci95: Statistics.Interval
    /// Mean F1 over the gold languages present.
    public var macroF1: Double
    public var perLanguage: [PerLanguage]

    enum CodingKeys: String, CodingKey {
        case n, correct, accuracy, ci95 = "ci95", macroF1 = "macro_f1", perLanguage = "per_language"
    }

    public init(_ results: [DetectionResult]) {
        var counts = LabelCounts<String>()
        var codes: [String: LanguageCode] = [:]
        for result in results {
            let gold = result.lang.languageAndScript
            codes[gold] = result.lang
            counts.add(gold: gold, predicted: result.predicted?.languageAndScript)
        }
        n = results.count
        correct = counts.correct
        accuracy = n > 0 ? Double(correct) / Double(n) : 0
        ci95 = Statistics.wilson(successes: correct, trials: n)
        perLanguage = counts.goldLabels.sorted { codes[$0]! < codes[$1]! }.map { key in
            let c = counts.labels[key]!
            let negatives = results.count - c.support
            return PerLanguage(lang: codes[key]!, support: c.support, truePositives: c.truePositives, falsePositives: c.falsePositives,
                               precision: c.precision, recall: c.recall, f1: c.f1,
                               falsePositiveRate: negatives > 0 ? Double(c.falsePositives) / Double(negatives) : 0)
        }
        macroF1 = counts.macroAverage(\.f1)
    }
}
