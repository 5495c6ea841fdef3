import BenchSupport

extension ClassificationMetrics {
    /// Classification counts added one (gold, predicted) pair at a time, so metrics over millions of
    /// results need no list of them.
    public struct Tally: Sendable {
        private var counts = LabelCounts<String>()
        /// The code shown for a gold key; the last one added wins (as when built from a list).
        private var codes: [String: LanguageCode] = [:]
        private(set) var n = 0

        public init() {}

        /// Adds one pair; `goldKey`/`predictedKey` are the codes' `languageAndScript`.
        mutating func add(gold: LanguageCode, goldKey: String, predictedKey: String?) {
            codes[goldKey] = gold
            counts.add(gold: goldKey, predicted: predictedKey)
            n += 1
        }

        var metrics: ClassificationMetrics { ClassificationMetrics(counts: counts, codes: codes, n: n) }
    }

    public init(_ results: [DetectionResult]) {
        var tally = Tally()
        var equivalence = LanguageEquivalence()
        for result in results {
            tally.add(gold: result.lang, goldKey: equivalence.key(result.lang), predictedKey: result.predicted.map { equivalence.key($0) })
        }
        self = tally.metrics
    }

    init(counts: LabelCounts<String>, codes: [String: LanguageCode], n: Int) {
        self.n = n
        correct = counts.correct
        accuracy = n > 0 ? Double(correct) / Double(n) : 0
        ci95 = Statistics.wilson(successes: correct, trials: n)
        perLanguage = counts.goldLabels.sorted { codes[$0]! < codes[$1]! }.map { key in
            let c = counts.labels[key]!
            let negatives = n - c.support
            return PerLanguage(lang: codes[key]!, support: c.support, truePositives: c.truePositives, falsePositives: c.falsePositives,
                               precision: c.precision, recall: c.recall, f1: c.f1,
                               falsePositiveRate: negatives > 0 ? Double(c.falsePositives) / Double(negatives) : 0)
        }
        macroF1 = counts.macroAverage(\.f1)
    }
}
