import Support
import Foundation
import Recognizer

extension TrainCommand {
    /// Accuracy (macro over languages) per held-out slice on the report half, with every language as a
    /// candidate, with the Cyrillic ones only and with `listed` (if any), under three bias settings: none, fitted on the tuning
    /// half now, and the trainer's (`TrainingOptions`, what the model file gets).
    static func heldOutReport(_ lists: [WordList], trainOnAddedForms: Bool = true, listed: [String] = [],
                              reportOnTuningHalf: Bool = false) throws -> String {
        let split = HeldOutSplit(lists: lists, trainOnAddedForms: trainOnAddedForms)
        var options = TrainingOptions()
        let trainer = BiasCalibration.Fit(perWord: options.recognition.languageBias,
                                          unlisted: options.recognition.unlistedBias)
        options.recognition.languageBias = [:]
        options.recognition.unlistedBias = [:]
        let model = try Trainer.train(lists: split.training, options: options)
        let fitted = BiasCalibration.fit(model: model, items: split.items(tuning: true))
        let report = split.items(tuning: reportOnTuningHalf)
        let all = lists.map(\.language)
        let cyrillic = all.filter { model.script(of: $0) == .cyrillic }
        var out = "measured on the \(reportOnTuningHalf ? "tuning" : "report") half\n"
        out += "fitted on the tuning half (nats): per word \(Self.biasList(fitted.perWord)); "
            + "unlisted \(Self.biasList(fitted.unlisted))\n"
        out += "trainer (TrainingOptions): per word \(Self.biasList(trainer.perWord)); "
            + "unlisted \(Self.biasList(trainer.unlisted))\n\n"
        out += "slice\tcandidates\tbias\tn\tmacro_accuracy\n"
        var perLanguage = ""
        for (biasName, bias) in [("none", BiasCalibration.Fit()), ("fitted", fitted), ("trainer", trainer)] {
            var parameters = model.parameters
            parameters.languageBias = bias.perWord
            parameters.unlistedBias = bias.unlisted
            let biased = model.with(parameters: parameters)
            for (name, candidates) in [("all", all), ("cyrillic", cyrillic), ("listed", listed)] where !candidates.isEmpty {
                let recognizer = LanguageRecognizer(model: biased, constraints: candidates)
                let items = report.filter { candidates.contains($0.language) }
                let evaluation = AccuracyEvaluation(items: items) { recognizer.recognize($0).dominantLanguage }
                let slices = evaluation.sliceNames.filter { $0 != "all" }
                for slice in evaluation.sliceNames {
                    out += "\(slice)\t\(name)\t\(biasName)\t\(evaluation.items(slice))\t"
                        + String(format: "%.4f", evaluation.macroAccuracy(slice)) + "\n"
                }
                // Per language: accuracy (recall) in each slice, the table docs/benchmarks.md records.
                perLanguage += "\nlanguage\tcandidates\tbias\t" + slices.joined(separator: "\t") + "\n"
                for language in candidates where items.contains(where: { $0.language == language }) {
                    let cells = slices.map { slice in
                        evaluation.slices[slice]?.labels[language].flatMap { $0.support > 0 ? String(format: "%.1f", $0.recall * 100) : nil } ?? "-"
                    }
                    perLanguage += "\(language)\t\(name)\t\(biasName)\t" + cells.joined(separator: "\t") + "\n"
                }
            }
        }
        return out + perLanguage
    }

    private static func biasList(_ bias: [String: Float]) -> String {
        let nonzero = bias.filter { $0.value != 0 }.sorted { $0.key < $1.key }
        return nonzero.isEmpty ? "none" : nonzero.map { "\($0.key)=\(String(format: "%.2f", $0.value))" }.joined(separator: " ")
    }
}
