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
        n = results.count
        correct = results.filter(\.correct).count
        accuracy = n > 0 ? Double(correct) / Double(n) : 0
        ci95 = Statistics.wilson(successes: correct, trials: n)
        var support: [String: Int] = [:], truePositive: [String: Int] = [:], predictedCount: [String: Int] = [:]
        var codes: [String: LanguageCode] = [:]
        for result in results {
            let gold = result.lang.languageAndScript
            codes[gold] = result.lang
            support[gold, default: 0] += 1
            if let predicted = result.predicted {
                predictedCount[predicted.languageAndScript, default: 0] += 1
                if result.correct { truePositive[gold, default: 0] += 1 }
            }
        }
        perLanguage = support.keys.sorted { codes[$0]! < codes[$1]! }.map { key in
            let tp = truePositive[key] ?? 0, sup = support[key] ?? 0
            let fp = (predictedCount[key] ?? 0) - tp
            let negatives = results.count - sup
            let precision = tp + fp > 0 ? Double(tp) / Double(tp + fp) : 0
            let recall = sup > 0 ? Double(tp) / Double(sup) : 0
            let f1 = precision + recall > 0 ? 2 * precision * recall / (precision + recall) : 0
            return PerLanguage(lang: codes[key]!, support: sup, truePositives: tp, falsePositives: fp, precision: precision,
                               recall: recall, f1: f1, falsePositiveRate: negatives > 0 ? Double(fp) / Double(negatives) : 0)
        }
        macroF1 = perLanguage.isEmpty ? 0 : perLanguage.map(\.f1).reduce(0, +) / Double(perLanguage.count)
    }
}
