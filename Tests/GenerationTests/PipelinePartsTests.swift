import Support
import Foundation
@testable import Generation
import GenerationTestSupport
@testable import Corpus
import Testing

struct PipelinePartsTests {
    @Test func supportIsCheckedWithLocaleEquivalence() throws {
        let profile = try PipelineFixture.profile()
        #expect(profile.supports(LanguageCode(normalised: "en-AU")))
        #expect(profile.supports(LanguageCode(normalised: "pt")))
        #expect(!profile.supports(LanguageCode(normalised: "ru")))
        #expect(!profile.supports(LanguageCode(normalised: "kk")))
    }

    @Test func routerDecidesAtRuntimeFromTheProfile() throws {
        var profile = try PipelineFixture.profile()
        let pipeline = try PipelineFixture.pipeline(backend: UnusedBackend(), detector: FixedDetector(lang: "ru"), profile: profile)
        let russian = ReplyPipeline.Detection(language: LanguageCode(normalised: "ru"), milliseconds: 0, isCrisis: false)
        #expect(pipeline.routes(for: russian, choice: .auto) == [.pivot])
        profile.supportedLanguages.append(LanguageCode(normalised: "ru"))
        let widened = try PipelineFixture.pipeline(backend: UnusedBackend(), detector: FixedDetector(lang: "ru"), profile: profile)
        #expect(widened.routes(for: russian, choice: .auto) == [.direct])
        #expect(widened.routes(for: russian, choice: .both) == [.direct, .pivot])
    }

    @Test func packStates() {
        let packs = LanguagePacks.deviceDefault
        let kk = LanguageCode(normalised: "kk"), en = LanguageCode(normalised: "en"), ru = LanguageCode(normalised: "ru")
        #expect(packs.state(from: kk, to: en) == .supported)
        #expect(packs.state(from: ru, to: en) == .installed)
        #expect(LanguagePacks(defaultState: .unsupported).state(from: ru, to: en) == .unsupported)
    }

    @Test(arguments: [("I want to kill myself", "en", true), ("I will kill it at the gym", "en", false),
                      ("Я больше не хочу жить", "ru", true), ("İntihar etmek istiyorum", "tr", true),
                      // Serbian in either script, with or without diacritics (Latin used to reach the model).
                      ("Не желим да живим више", "sr", true), ("Ne želim da živim više", "sr-Latn", true),
                      ("ne zelim da zivim vise", "sr", true), ("Želim da živim srećno", "sr-Latn", false),
                      // Kazakh in Cyrillic, the official Latin alphabet, and plain ASCII Latin (with k or q for қ).
                      ("Өзімді өлтіргім келеді", "kk", true), ("Özımdı öltırgım keledı", "kk", true),
                      ("ozimdi oltirgim keledi", "kk", true), ("Ozime qol zhumsagym keledi", "kk", true),
                      ("Bugin aua raiy jaqsy", "kk", false), ("Turkish by hand: canima kiyacagim", "tr", true)])
    func crisisKeywords(text: String, lang: String, flagged: Bool) throws {
        let item = PipelineFixture.item("x", lang, text)
        #expect(try PipelineFixture.crisis().isCrisis(item, detected: nil) == flagged)
    }

    /// People switch between the confusable languages inside one message, and a detector confuses them on short text:
    /// a keyword of any of them counts for all, in the label's or the detected language alike.
    @Test(arguments: [("мені так погано, не хочу жить більше", "uk", nil, true), ("мені так погано, не хочу жить більше", "en", "uk", true),
                      ("Я вже не хочу жити, все", "ru", nil, true), ("не хачу жыць больш", "uk", nil, true),
                      ("не искам да живея вече", "mk", nil, true), ("хочу померти", "uk", nil, true),
                      ("хочу жить у морі", "uk", nil, false), ("мне хочется жить долго", "ru", nil, false),
                      // Outside the group a Russian phrase in a German-labelled, German-detected message is not looked for.
                      ("не хочу жить", "de", "de", false)])
    func crisisKeywordsAcrossTheConfusableLanguages(text: String, lang: String, detected: String?, flagged: Bool) throws {
        let item = PipelineFixture.item("x", lang, text)
        #expect(try PipelineFixture.crisis().isCrisis(item, detected: detected.map { LanguageCode(normalised: $0) }) == flagged)
    }

    /// An empty keyword list would let every keyword-only crisis message reach the model: refused, naming the file.
    @Test(arguments: ["", "lang\tkeyword\n", "lang\tkeyword\n\n  \n"])
    func anEmptyKeywordFileIsRefused(contents: String) throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("crisis-\(UUID().uuidString).tsv")
        try contents.write(to: url, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(throws: ConfigurationError.self) { try CrisisCheck.load(url.path) }
        do { _ = try CrisisCheck.load(url.path) } catch { #expect("\(error)".contains(url.path) && "\(error)".contains("holds no keyword"), "\(error)") }
        // A device reads as empty: the same refusal, not "no such file".
        do { _ = try CrisisCheck.load("/dev/null") } catch { #expect("\(error)".contains("/dev/null") && "\(error)".contains("the file is empty"), "\(error)") }
    }

    @Test func crisisTagFlagsWithoutKeywords() throws {
        #expect(try PipelineFixture.crisis().isCrisis(PipelineFixture.item("x", "en", "hello", tags: ["crisis"]), detected: nil))
    }

    @Test func fallbackBankIsDeterministicAndPerLanguage() throws {
        let bank = try PipelineFixture.bank()
        let uk = LanguageCode(normalised: "uk")
        #expect(bank.reply(for: uk, key: "a") == bank.reply(for: uk, key: "a"))
        #expect(bank.languages.count == 24)
        #expect(bank.crisisReply(for: uk) != bank.crisisReply(for: LanguageCode(normalised: "en")))
    }
}
