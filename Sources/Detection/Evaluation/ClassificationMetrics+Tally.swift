import Support
import Corpus

extension ClassificationMetrics {
    /// Classification counts added one (gold, predicted) pair at a time, so metrics over millions of
    /// results need no list of them. Labels are equivalence-key numbers and gold languages code numbers
    /// (`LanguageEquivalence`): no string is stored per result.
    struct Tally: Sendable {
        private var counts: [LabelCounts<Int>.Counts] = []
        /// The code number shown for a gold key; the last one added wins (as when built from a list).
        private var codes: [Int] = []
        private(set) var n = 0

        /// Adds one pair: `gold` (a code number) with its key number, and the predicted key number (nil:
        /// no prediction).
        mutating func add(gold: Int, goldKey: Int, predictedKey: Int?) {
            let needed = max(goldKey, predictedKey ?? 0) + 1
            if counts.count < needed {
                counts += Array(repeating: .init(), count: needed - counts.count)
                codes += Array(repeating: -1, count: needed - codes.count)
            }
            codes[goldKey] = gold
            counts[goldKey].support += 1
            if predictedKey == goldKey {
                counts[goldKey].truePositives += 1
            } else if let predictedKey {
                counts[predictedKey].falsePositives += 1
            }
            n += 1
        }

        /// The metrics, with gold languages named by `codes` (code number → code).
        func metrics(codes names: [LanguageCode]) -> ClassificationMetrics {
            let gold = counts.indices.filter { counts[$0].support > 0 }
            let correct = gold.map { counts[$0].truePositives }.reduce(0, +)
            let perLanguage = gold.sorted { names[codes[$0]] < names[codes[$1]] }.map { key in
                let c = counts[key]
                let negatives = n - c.support
                return PerLanguage(lang: names[codes[key]], support: c.support, truePositives: c.truePositives, falsePositives: c.falsePositives,
                                   precision: c.precision, recall: c.recall, f1: c.f1,
                                   falsePositiveRate: negatives > 0 ? Double(c.falsePositives) / Double(negatives) : 0)
            }
            // Summed in ascending order so equal counts give the same bits (see `LabelCounts.macroAverage`).
            let macroF1 = gold.isEmpty ? 0 : gold.map { counts[$0].f1 }.sorted().reduce(0, +) / Double(gold.count)
            return ClassificationMetrics(n: n, correct: correct, accuracy: n > 0 ? Double(correct) / Double(n) : 0,
                                         ci95: Statistics.wilson(successes: correct, trials: n), macroF1: macroF1, perLanguage: perLanguage)
        }
    }

    package init(_ results: [DetectionResult]) {
        var tally = Tally()
        var equivalence = LanguageEquivalence()
        for result in results {
            let gold = equivalence.number(result.lang)
            let predicted = result.predicted.map { equivalence.number($0) }
            tally.add(gold: gold, goldKey: equivalence.key(gold), predictedKey: predicted.map { equivalence.key($0) })
        }
        self = tally.metrics(codes: equivalence.codes)
    }
}
