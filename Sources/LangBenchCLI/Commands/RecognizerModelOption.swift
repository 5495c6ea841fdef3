import Detection
import Foundation
import Recognizer

/// The built-in recognizer's model for commands that use it directly (`identify`, `bench detector`):
/// `--model FILE`, else the bundled `Models/recognizer.lbrm` (see `BuiltinDetector.modelURL`).
enum RecognizerModelOption {
    /// What `--help` says the model defaults to.
    static let bundled = "LangBench's Models/recognizer.lbrm"

    static func loadModel(path: String?) throws -> LanguageModel {
        try LanguageModel(contentsOf: try BuiltinDetector.modelURL(path: path))
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
