import Foundation
import LangBench
import LanguageRecognition

/// Loads the built-in recognizer for `builtin` detection configs.
enum BuiltinDetectorLoader {
    static func load(modelPath: String?) throws -> any LanguageIdentifying {
        BuiltinDetector(model: try RecognizerModelOption.loadModel(path: modelPath))
    }
}

/// The built-in recognizer (`LanguageRecognition`) behind the harness's detector protocol.
struct BuiltinDetector: LanguageIdentifying {
    let model: LanguageModel
    var name: String { "builtin" }

    func identify(_ text: String, candidates: [LanguageCode]?, hints: [LanguageCode: Double]) async -> DetectionOutcome {
        let recognition = model.recognize(text, constraints: candidates?.map(\.identifier) ?? [],
                                          hints: Dictionary(uniqueKeysWithValues: hints.map { ($0.key.identifier, $0.value) }))
        let hypotheses = recognition.hypotheses.map {
            Hypothesis(lang: LanguageCode(normalised: $0.language), probability: $0.probability)
        }
        return hypotheses.isEmpty ? .undetermined : .hypotheses(hypotheses)
    }
}

/// Where the built-in recognizer's model comes from: `--model FILE` / `--recognizer-model FILE`, else
/// `Models/recognizer.lbrm` found from the working directory (or `LANGBENCH_RECOGNIZER_MODEL`).
enum RecognizerModelOption {
    static func url(path: String?) throws -> URL {
        if let path, path != "bundled model" { return URL(fileURLWithPath: path) }
        guard let url = LanguageModel.defaultModelURL() else { throw ModelError.noModelFound }
        return url
    }

    static func loadModel(path: String?) throws -> LanguageModel {
        try LanguageModel(contentsOf: try url(path: path))
    }

    /// Checks that every code is one the model can return, naming the ones it cannot.
    static func validate(_ codes: [String], model: LanguageModel, option: String, command: String) throws {
        let unknown = codes.filter { !model.supports($0) }
        guard unknown.isEmpty else {
            throw UsageError("--\(option): the recognizer does not know \(unknown.joined(separator: ", ")); "
                             + "it knows \(model.languages.joined(separator: ","))", command: command)
        }
    }
}
