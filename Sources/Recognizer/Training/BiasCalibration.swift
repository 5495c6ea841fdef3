/// Fits the per-language calibration of `RecognitionParameters` — a per-word bias (`languageBias`) and a
/// char-LM offset for words a language's list lacks (`unlistedBias`) — on labelled texts (the tuning half
/// of a `HeldOutSplit`, never an evaluation corpus).
///
/// Why: a language with a small frequency list (bg, sr, da) loses every word its list lacks to a neighbour
/// with a large one; two numbers per language can rebalance that without a new table. The fit is
/// coordinate ascent on a grid, per script model (languages of different scripts never compete),
/// maximising the sum of per-language accuracies over slices; a change is kept only when it
/// strictly improves the sum, so languages without a gain stay at 0.
public enum BiasCalibration {
    /// The fitted values, in nats, for every trained language of the scripts that have items.
    public struct Fit: Sendable, Equatable {
        public var perWord: [String: Float]
        public var unlisted: [String: Float]

        public init(perWord: [String: Float] = [:], unlisted: [String: Float] = [:]) {
            self.perWord = perWord
            self.unlisted = unlisted
        }
    }

    /// Fits both biases for every script model with items.
    public static func fit(model: LanguageModel, items: [LabeledText], grid: [Float] = Self.defaultGrid,
                           rounds: Int = 4) -> Fit {
        var result = Fit()
        for case let scriptModel? in model.scriptModels {
            let scored = Scored(model: model, scriptModel: scriptModel,
                                items: items.filter { scriptModel.languages.contains($0.language) })
            guard !scored.gold.isEmpty else { continue }
            let (perWord, unlisted) = scored.ascend(grid: grid, rounds: rounds)
            for (r, language) in scriptModel.languages.enumerated() {
                result.perWord[language] = perWord[r]
                result.unlisted[language] = unlisted[r]
            }
        }
        return result
    }

    /// −3 … 3 nats in steps of 0.2.
    public static let defaultGrid: [Float] = (-15...15).map { Float($0) / 5 }

    /// Each word's two terms per row, so that biases are judged without rescoring the text.
    struct Scored {
        let width: Int
        let cap: Float
        /// Per word and row: log(λ·P_list) (−∞ when unlisted) and log((1−λ)·P_charLM).
        var listTerm: [Float] = []
        var charTerm: [Float] = []
        /// Index of each item's first word in the word arrays; one past the last at the end.
        var firstWord: [Int] = [0]
        var gold: [Int] = []
        /// (slice index, language row) of each item; counts per cell for the macro average.
        var cell: [Int] = []
        var cellSize: [Float]

        init(model: LanguageModel, scriptModel: ScriptModel, items: [LabeledText]) {
            width = scriptModel.width
            cap = model.parameters.tokenEvidenceCap
            let slices = Array(Set(items.map(\.slice))).sorted()
            cellSize = [Float](repeating: 0, count: slices.count * width)
            var char = [Float](repeating: 0, count: width), list = char
            for item in items {
                model.forEachWord(of: TextNormalizer.normalize(item.text), in: scriptModel) { word in
                    scriptModel.wordTerms(word, lambda: model.parameters.lambda, char: &char, list: &list)
                    charTerm += char
                    listTerm += list
                }
                firstWord.append(charTerm.count / width)
                let row = scriptModel.languages.firstIndex(of: item.language)!
                gold.append(row)
                let c = slices.firstIndex(of: item.slice)! * width + row
                cell.append(c)
                cellSize[c] += 1
            }
        }

        /// Sum of the accuracies of every (slice, language) with items: each slice's macro accuracy times its
        /// number of languages, so a slice only one language has (sr's forms) weighs as one language, not as
        /// a whole slice.
        func objective(perWord: [Float], unlisted: [Float]) -> Float {
            var correct = [Float](repeating: 0, count: cellSize.count)
            var total = [Float](repeating: 0, count: width), score = total
            for i in gold.indices {
                for r in 0..<width { total[r] = 0 }
                for w in firstWord[i]..<firstWord[i + 1] {
                    var best = -Float.infinity
                    for r in 0..<width {
                        let c = charTerm[w * width + r] + unlisted[r], a = listTerm[w * width + r]
                        score[r] = a > -.infinity ? ScriptModel.logAddExp(a, c) : c
                        best = max(best, score[r])
                    }
                    for r in 0..<width { total[r] += max(score[r], best - cap) + perWord[r] }
                }
                var top = -Float.infinity, predicted = -1
                for r in 0..<width where total[r] > top {
                    top = total[r]
                    predicted = r
                }
                if predicted == gold[i] { correct[cell[i]] += 1 }
            }
            var sum: Float = 0
            for c in cellSize.indices where cellSize[c] > 0 { sum += correct[c] / cellSize[c] }
            return sum
        }

        func ascend(grid: [Float], rounds: Int) -> (perWord: [Float], unlisted: [Float]) {
            var perWord = [Float](repeating: 0, count: width), unlisted = perWord
            var best = objective(perWord: perWord, unlisted: unlisted)
            for _ in 0..<rounds {
                var changed = false
                for r in 0..<width {
                    for which in 0..<2 {
                        for value in grid where value != (which == 0 ? perWord[r] : unlisted[r]) {
                            var trialWord = perWord, trialUnlisted = unlisted
                            if which == 0 { trialWord[r] = value } else { trialUnlisted[r] = value }
                            let score = objective(perWord: trialWord, unlisted: trialUnlisted)
                            if score > best + 1e-6 {
                                best = score
                                (perWord, unlisted) = (trialWord, trialUnlisted)
                                changed = true
                            }
                        }
                    }
                }
                if !changed { break }
            }
            return (perWord, unlisted)
        }
    }
}
