import Foundation
@testable import LanguageRecognition
import TestSupport

/// The committed model (Models/recognizer.lbrm), loaded once for all tests.
enum TestModel {
    static let url = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Models/recognizer.lbrm")

    static let shared: LanguageModel = {
        do { return try LanguageModel(contentsOf: url) } catch { fatalError("cannot load \(url.path): \(error)") }
    }()

    static let corpusLanguages = ["en", "ru", "uk", "bg", "mk", "be", "sr", "kk", "de", "fr", "es", "it", "pt",
                                  "nl", "sv", "da", "nb", "pl", "cs", "sk", "tr", "ja", "ko", "zh-Hans"]
    static let cyrillic = ["ru", "uk", "bg", "mk", "be", "sr", "kk"]

    /// A fixture file's URL.
    static func fixture(_ name: String) -> URL {
        URL(fileURLWithPath: Fixture.path(name))
    }
}
