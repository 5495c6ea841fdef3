@testable import Detection
import Foundation
@testable import Corpus
import Recognizer
import Testing

/// A candidate written in a config that the detector cannot produce is an error; `zh` is Chinese; the
/// languages `profile:supported` brings in (the generator's) are not checked.
struct CandidateErrorTests {
    /// A model that cannot be loaded fails each test that uses it, not the whole run.
    static let detector = Result { try BuiltinDetector(modelPath: nil) }

    /// (spec, unsupported codes named in the error, or [] for no error).
    static let table: [(CandidateSpec, [String])] = [
        (.none, []),
        (.list([LanguageCode(normalised: "ru"), LanguageCode(normalised: "zh")]), []),
        (.list([LanguageCode(normalised: "ru"), LanguageCode(normalised: "fi")]), ["fi"]),
        (.expression("profile:supported + app:ru + device:en,uk"), []),
        (.expression("profile:supported + app:ru,zh-CN + device:vi"), ["vi"]),
        (.expression("sr-Latn + sr"), ["sr-Latn"]),
    ]

    @Test("unsupported written candidates are named", arguments: table)
    func check(_ spec: CandidateSpec, _ unsupported: [String]) throws {
        do {
            try CandidateError.check(spec, detector: try Self.detector.get(), config: "c")
            #expect(unsupported.isEmpty, "expected an error naming \(unsupported)")
        } catch let error as CandidateError {
            #expect(error.unsupported.map(\.identifier) == unsupported)
            #expect(error.description.hasPrefix("config 'c': detector builtin cannot produce \(unsupported.joined(separator: ", ")); "))
        }
    }

    @Test("detectors that cannot say what they know are not checked")
    func externalUnchecked() throws {
        try CandidateError.check(.list([LanguageCode(normalised: "fi")]), detector: ExternalDetector(command: "true"), config: "c")
    }
}
