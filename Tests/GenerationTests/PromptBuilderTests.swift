@testable import Generation
import GenerationTestSupport
@testable import Corpus
import TestSupport
import Testing

struct PromptBuilderTests {
    let builder: PromptBuilder

    init() throws {
        builder = PromptBuilder(templates: try PipelineFixture.profile().prompts)
    }

    @Test func directPreambleStartsWithLocaleAndMust() {
        let prompt = builder.reply(language: LanguageCode(normalised: "de"), message: "Hallo!", history: [])
        #expect(prompt.hasPrefix("The person's locale is de-DE.\nYou MUST respond in German.\nDu bist"))
        #expect(prompt.hasSuffix("Nutzer: Hallo!\nBegleiter:"))
    }

    @Test func englishUSOmitsTheLocaleLine() {
        let prompt = builder.reply(language: LanguageCode(normalised: "en"), message: "Hi", history: [])
        #expect(prompt.hasPrefix("You MUST respond in English.\n"))
        let australian = builder.reply(language: LanguageCode(normalised: "en-AU"), message: "Hi", history: [])
        #expect(australian.hasPrefix("The person's locale is en-AU.\n"))
    }

    @Test func historyTurnsAndNewlinesAreOneLineEach() {
        let prompt = builder.reply(language: LanguageCode(normalised: "en"), message: "line one\nline two",
                                   history: [Turn(role: .user, text: "a"), Turn(role: .assistant, text: "b\nc")])
        #expect(prompt.hasSuffix("User: a\nCompanion: b c\nUser: line one line two\nCompanion:"))
    }

    @Test func placeholdersInUserTextAreNotExpanded() {
        let prompt = builder.reply(language: LanguageCode(normalised: "en"), message: "{preamble} {assistant}", history: [])
        #expect(prompt.hasSuffix("User: {preamble} {assistant}\nCompanion:"))
    }

    @Test func translationUsesPairExamples() {
        let prompt = builder.translation("Как дела?", from: LanguageCode(normalised: "ru"), to: LanguageCode(normalised: "en"))
        #expect(prompt.hasPrefix("Translate from Russian to English.\n\nRussian: Привет! Как прошёл твой день?\nEnglish: Hi! How was your day?\n\n"))
        #expect(prompt.hasSuffix("Russian: Как дела?\nEnglish:"))
    }

    @Test func promptGolden() {
        let history = [Turn(role: .user, text: "Привет"), Turn(role: .assistant, text: "Привет! Как ты?")]
        Snapshot.assert(builder.reply(language: LanguageCode(normalised: "es"), message: "¿Qué tal?", history: history) + "\n---\n"
                        + builder.translation("Я устал.", from: LanguageCode(normalised: "uk"), to: LanguageCode(normalised: "en")),
                        named: "prompts.txt")
    }
}
