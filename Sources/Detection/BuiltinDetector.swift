import Foundation
import Corpus
import Recognizer

/// The built-in recognizer (`Recognizer`) behind the harness's detector protocol.
package struct BuiltinDetector: LanguageIdentifying {
    package let model: LanguageModel
    package var name: String { DetectorKind.builtin.spec }
    package var knownLanguages: [LanguageCode]? { model.languages.map { LanguageCode(normalised: $0) } }

    package init(model: LanguageModel) {
        self.model = model
    }

    /// Loads the model at `modelPath`, or the bundled one when nil.
    package init(modelPath: String?) throws {
        self.init(model: try LanguageModel(contentsOf: try Self.modelURL(path: modelPath)))
    }

    /// `path`, or the bundled `Models/recognizer.lbrm` found from the working directory upwards
    /// (`LANGBENCH_RECOGNIZER_MODEL` overrides it) when nil.
    package static func modelURL(path: String?) throws -> URL {
        if let path { return URL(fileURLWithPath: path) }
        guard let url = LanguageModel.defaultModelURL() else { throw ModelError.noModelFound }
        return url
    }

    package func identify(_ text: String, candidates: [LanguageCode]?, hints: [LanguageCode: Double]) async -> DetectionOutcome {
        let recognition = model.recognize(text, constraints: candidates?.map(\.identifier) ?? [],
                                          hints: Dictionary(uniqueKeysWithValues: hints.map { ($0.key.identifier, $0.value) }))
        let hypotheses = recognition.hypotheses.map {
            Hypothesis(lang: LanguageCode(normalised: $0.language), probability: $0.probability)
        }
        return hypotheses.isEmpty ? .undetermined : .hypotheses(hypotheses)
    }

    /// One recognizer for the config, made once (its candidate prior is the per-call cost otherwise).
    package func concurrentIdentifier(candidates: [LanguageCode]?, hints: [LanguageCode: Double]) -> (@Sendable (String) -> Hypothesis?)? {
        let recognizer = LanguageRecognizer(model: model, constraints: candidates?.map(\.identifier) ?? [],
                                            hints: Dictionary(uniqueKeysWithValues: hints.map { ($0.key.identifier, $0.value) }))
        return { text in
            recognizer.recognize(text).hypotheses.first.map { Hypothesis(lang: LanguageCode(normalised: $0.language), probability: $0.probability) }
        }
    }
}
