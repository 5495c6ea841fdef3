import Foundation
@testable import Recognizer
import Testing
import TestSupport

/// The committed model (Models/recognizer.lbrm), loaded once for all tests.
enum TestModel {
    static let url = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Models/recognizer.lbrm")

    /// A model that cannot be loaded fails the test that first asks for it and leaves an empty model
    /// (it knows no language, so every test that uses it fails too) instead of crashing the whole run.
    static let shared: LanguageModel = {
        do {
            return try LanguageModel(contentsOf: url)
        } catch {
            Issue.record("cannot load \(url.path): \(error)")
            return LanguageModel(scriptModels: [], parameters: RecognitionParameters(), metadata: ModelMetadata())
        }
    }()

    static let corpusLanguages = ["en", "ru", "uk", "bg", "mk", "be", "sr", "kk", "de", "fr", "es", "it", "pt",
                                  "nl", "sv", "da", "nb", "pl", "cs", "sk", "tr", "ja", "ko", "zh-Hans"]
    static let cyrillic = ["ru", "uk", "bg", "mk", "be", "sr", "kk"]

    /// A fixture file's URL.
    static func fixture(_ name: String) -> URL {
        URL(fileURLWithPath: Fixture.path(name))
    }
}
