import Support
import Corpus

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
}
