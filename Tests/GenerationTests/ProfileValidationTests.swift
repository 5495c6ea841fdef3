@testable import Support
import Foundation
@testable import Generation
import GenerationTestSupport
@testable import Corpus
import TestSupport
import Testing

/// A profile or pack list that would make every reply a fallback, or silently
/// not apply, is refused with the file and key path.
struct ProfileValidationTests {
    @Test(arguments: [
        (["sampling", "n_predict"], "-5", "p.json (sampling.n_predict): must be at least 1 (or -1: until a stop string), not -5"),
        (["sampling", "n_predict"], "0", "p.json (sampling.n_predict): must be at least 1 (or -1: until a stop string), not 0"),
        (["translation_sampling", "top_p"], "1.5", "p.json (translation_sampling.top_p): must be in 0...1, not 1.5"),
        (["server", "context_size"], "0", "p.json (server.context_size): must be at least 64 tokens, not 0"),
        (["server", "threads"], "0", "p.json (server.threads): must be in 1...256, not 0"),
        (["server", "parallel_slots"], "-1", "p.json (server.parallel_slots): must be in 1...256, not -1"),
        (["prompts", "reply"], #""{preamble}\nuser: hi\nassistant:""#, "p.json (prompts.reply): must contain {message}"),
        (["prompts", "reply"], #""{preamble}\n{bogus}\nuser: {message}\nassistant:""#,
         "p.json (prompts.reply): unknown placeholder {bogus}; known: {preamble}, {history}, {user}, {assistant}, {message}"),
        (["prompts", "turn"], #""{speaker}: {message}\n""#, "p.json (prompts.turn): unknown placeholder {message}; known: {speaker}, {text}"),
        (["prompts", "must_line"], #"{"ru": "Отвечай на {lang}."}"#, "p.json (prompts.must_line.ru): unknown placeholder {lang}; known: {language}"),
        (["prompts", "instructions"], #"{"default": "Be brief with {name}."}"#,
         "p.json (prompts.instructions.default): unknown placeholder {name}; this text takes no placeholders"),
        (["name"], #"" ""#, "p.json (name): must name the profile (reports label its runs with it)"),
    ])
    func outOfRangeProfileValuesAreRefused(keyPath: [String], value: String, message: String) throws {
        let data = try PipelineFixture.profile(setting: keyPath, to: value)
        #expect {
            try StrictJSON.decodeEverySection(ModelProfile.self, from: data, path: "p.json")
        } throws: { error in
            (error as? ConfigurationError)?.description == message
        }
    }

    @Test func minusOneNPredictIsLlamaCppsUntilStop() throws {
        let profile = try StrictJSON.decodeEverySection(ModelProfile.self, from: try PipelineFixture.profile(setting: ["sampling", "n_predict"], to: "-1"), path: "p.json")
        #expect(profile.sampling.nPredict == -1)
    }

    @Test(arguments: [
        ("KK-EN", "packs.json (pairs): pack key 'KK-EN' never matches: write 'kk-en'"),
        ("kk_en", "packs.json (pairs): pack key 'kk_en' is not <source>-<target> (two language codes joined by a hyphen, e.g. kk-en)"),
        ("kk", "packs.json (pairs): pack key 'kk' is not <source>-<target> (two language codes joined by a hyphen, e.g. kk-en)"),
    ])
    func packKeysThatNeverMatchAreRefused(key: String, message: String) {
        #expect {
            try StrictJSON.decode(LanguagePacks.self, from: Data(#"{"pairs": {"\#(key)": "supported"}}"#.utf8), path: "packs.json")
        } throws: { error in
            (error as? ConfigurationError)?.description == message
        }
    }

    @Test func canonicalPackKeysLoadAndApply() throws {
        let packs = try StrictJSON.decode(LanguagePacks.self, from: Data(#"{"pairs": {"kk-en": "supported", "zh-Hans-en": "unsupported"}}"#.utf8), path: "p")
        #expect(packs.state(from: try LanguageCode("kk"), to: try LanguageCode("en")) == .supported)
        #expect(packs.state(from: try LanguageCode("zh-Hans"), to: try LanguageCode("en")) == .unsupported)
    }
}
