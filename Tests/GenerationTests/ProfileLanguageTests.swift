import Foundation
import Generation
import GenerationTestSupport
@testable import Corpus
import Recognizer
import TestSupport
import Testing

/// The default profile's reply instructions are written in the language they are keyed under: the built-in
/// recognizer (unconstrained) reads each entry, example exchange included, as that language and script.
struct ProfileLanguageTests {
    static let model = Result { () throws -> LanguageModel in
        guard let url = LanguageModel.defaultModelURL() else { throw ModelError.noModelFound }
        return try LanguageModel(contentsOf: url)
    }
    /// Argument lists cannot throw: a profile that fails to load gives no keys here and fails `everyCorpusLanguage…`.
    static let keys = ((try? PipelineFixture.profile())?.prompts.instructions.keys).map { $0.filter { $0 != "default" }.sorted() } ?? []
    /// Entries in a language the recognizer cannot return (today vi and zh-Hant) cannot be checked this way;
    /// the list shrinks by itself when the recognizer learns the language.
    static var checkable: [String] {
        guard let model = try? model.get() else { return keys }  // the load failure is reported by every case
        return keys.filter { model.supports(LanguageCode(normalised: $0).identifier) || model.supports(LanguageCode(normalised: $0).languageAndScript) }
    }

    @Test func everyCorpusLanguageTheRouterCanReachHasNativeInstructions() throws {
        let routable = ["ru", "uk", "bg", "kk", "be", "mk", "sr", "it", "pt", "nl", "sv", "tr", "ko", "zh",
                        "de", "es", "fr", "ja", "da", "nb", "pl", "cs", "sk"]
        let prompts = try PipelineFixture.profile().prompts
        let instructions = prompts.instructions, speakers = prompts.speakers
        #expect(routable.filter { instructions[$0] == nil } == [])
        #expect(routable.filter { speakers[$0] == nil } == [])
    }

    @Test(arguments: checkable) func instructionsAreInTheirLanguage(key: String) throws {
        let model = try Self.model.get()
        let text = try #require(try PipelineFixture.profile().prompts.instructions[key])
        let top = try #require(model.recognize(text, constraints: [], hints: [:]).hypotheses.first)
        let expected = LanguageCode(normalised: key)
        #expect(LanguageCode(normalised: top.language).isEquivalent(to: expected),
                "instructions.\(key) read as \(top.language) (\(top.probability))")
    }

    @Test(arguments: keys) func exampleExchangeUsesTheLanguagesSpeakerLabels(key: String) throws {
        let text = try #require(try PipelineFixture.profile().prompts.instructions[key])
        let speakers = try #require(try PipelineFixture.profile().prompts.speakers[key], "speakers.\(key) is missing")
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("\(speakers.user): ") }, "no '\(speakers.user): ' line in instructions.\(key)")
        #expect(lines.contains { $0.hasPrefix("\(speakers.assistant): ") }, "no '\(speakers.assistant): ' line in instructions.\(key)")
    }
}
