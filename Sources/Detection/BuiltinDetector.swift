import Foundation
import Items
import LanguageRecognition

/// The built-in recognizer (`LanguageRecognition`) behind the harness's detector protocol.
public struct BuiltinDetector: LanguageIdentifying {
    public let model: LanguageModel
    public var name: String { DetectorKind.builtin.spec }
    public var knownLanguages: [LanguageCode]? { model.languages.map { LanguageCode(normalised: $0) } }

    public init(model: LanguageModel) {
        self.model = model
    }

    /// Loads the model at `modelPath`, or the bundled one when nil.
    public init(modelPath: String?) throws {
        self.init(model: try LanguageModel(contentsOf: try Self.modelURL(path: modelPath)))
    }

    /// `path`, or the bundled `Models/recognizer.lbrm` found from the working directory upwards
    /// (`LANGBENCH_RECOGNIZER_MODEL` overrides it) when nil.
    public static func modelURL(path: String?) throws -> URL {
        if let path { return URL(fileURLWithPath: path) }
        guard let url = LanguageModel.defaultModelURL() else { throw ModelError.noModelFound }
        return url
    }

    public func identify(_ text: String, candidates: [LanguageCode]?, hints: [LanguageCode: Double]) async -> DetectionOutcome {
        let recognition = model.recognize(text, constraints: candidates?.map(\.identifier) ?? [],
                                          hints: Dictionary(uniqueKeysWithValues: hints.map { ($0.key.identifier, $0.value) }))
        let hypotheses = recognition.hypotheses.map {
            Hypothesis(lang: LanguageCode(normalised: $0.language), probability: $0.probability)
        }
        return hypotheses.isEmpty ? .undetermined : .hypotheses(hypotheses)
    }

    /// One recognizer for the config, made once (its candidate prior is the per-call cost otherwise).
    public func concurrentIdentifier(candidates: [LanguageCode]?, hints: [LanguageCode: Double]) -> (@Sendable (String) -> Hypothesis?)? {
        let recognizer = LanguageRecognizer(model: model, constraints: candidates?.map(\.identifier) ?? [],
                                            hints: Dictionary(uniqueKeysWithValues: hints.map { ($0.key.identifier, $0.value) }))
        return { text in
            recognizer.recognize(text).hypotheses.first.map { Hypothesis(lang: LanguageCode(normalised: $0.language), probability: $0.probability) }
        }
    }
}
