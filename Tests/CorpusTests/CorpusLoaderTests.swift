@testable import Corpus
import TestSupport
import Testing

struct CorpusLoaderTests {
    @Test func reportsEveryProblemWithItsLine() throws {
        let path = Fixture.path("corpus/bad.tsv")
        let outcome = try CorpusLoader().read([path])
        #expect(outcome.problems.map(\.description) == [
            "\(path):3: unknown language code 'xx' (use an ISO 639 code such as 'ru', 'uk' or 'zh-Hans')",
            "\(path):4: empty text",
            "\(path):5: duplicate id 'a1' (first at \(path):2)",
            "\(path):6: invalid UTF-8",
        ])
        // BOM-free CRLF last line and the alpha-3 code are fine.
        #expect(outcome.corpus.items.map(\.id) == ["a1", "a6"])
        #expect(outcome.corpus.items.last?.lang.identifier == "ru")
        #expect(outcome.corpus.items.last?.tags == ["greeting", "evening"])
    }

    @Test func loadThrowsWhenAnyProblem() {
        #expect(throws: CorpusError.self) { try CorpusLoader().load([Fixture.path("corpus/bad.tsv")]) }
    }

    @Test func readsQuotedCSVWithBOMAndEmbeddedNewline() throws {
        let corpus = try CorpusLoader().load([Fixture.path("corpus/quoted.csv")])
        #expect(corpus.items.map(\.text) == ["Hello, \"friend\"", "Guten\nMorgen"])
        #expect(corpus.items.map(\.source.line) == [2, 3])
        #expect(corpus.sources.first?.format == .csv)
    }

    @Test func readsJSONLWithHistory() throws {
        let corpus = try CorpusLoader().load([Fixture.path("corpus/items.jsonl")])
        #expect(corpus.items.count == 2)
        #expect(corpus.items[1].history == [Turn(role: .user, text: "Привіт"), Turn(role: .assistant, text: "Привіт! Як ти?")])
    }

    @Test func readsTatoebaAndSkipsUndetermined() throws {
        let outcome = try CorpusLoader().read([Fixture.path("corpus/sentences.csv")])
        #expect(outcome.problems.isEmpty)
        #expect(outcome.skippedRows == 1)
        #expect(outcome.corpus.items.map(\.lang.identifier) == ["ru", "uk"])
        #expect(outcome.corpus.sources.first?.format == .tatoeba)
    }

    @Test func readsLinguaLayoutWithStemAsTag() throws {
        let corpus = try CorpusLoader().load([Fixture.path("corpus/lingua")])
        #expect(corpus.items.count == 5)
        #expect(corpus.items.filter { $0.tags == ["single-words"] }.count == 4)
        #expect(corpus.items.first { $0.text == "їжак" }?.lang.identifier == "uk")
        #expect(corpus.items.first { $0.text == "їжак" }?.source.line == 3)
    }

    @Test func hashesEachSourceFile() throws {
        let corpus = try CorpusLoader().load([Fixture.path("corpus/items.jsonl")])
        #expect(corpus.sources.first?.sha256.count == 64)
    }

    @Test func unknownExtensionIsAnError() {
        #expect(throws: CorpusError.self) { try CorpusLoader().read([Fixture.path("corpus/../../Corpus/CorpusLoaderTests.swift")]) }
    }

    @Test(arguments: [("a", LengthBucket.one), ("a b", .twoToThree), ("a b c d", .fourToEight), ("a b c d e f g h i", .ninePlus), ("hi 👋", .one)])
    func lengthBuckets(text: String, bucket: LengthBucket) throws {
        #expect(LengthBucket(text: text, lang: try LanguageCode("en")) == bucket)
    }

    @Test func cjkLengthCountsCharacters() throws {
        #expect(LengthBucket(text: "こんにちは", lang: try LanguageCode("ja")) == .twoToThree)
        #expect(LengthBucket(text: "你好", lang: try LanguageCode("zh-Hans")) == .one)
    }

    /// The byte check of the primary subtag answers what comparing `lang.language` does.
    @Test(arguments: ["ja", "zh", "zh-Hans", "zh-Hant", "zh-TW", "ja-Latn", "jv", "za", "en", "j", "z", "jaa", "zha", "zh_", "ja-", "-ja", "", "ru", "hz", "aj"])
    func charactersCountForJapaneseAndChinese(identifier: String) {
        let code = LanguageCode(normalised: identifier)
        #expect(LengthBucket.isCountedInCharacters(code) == ["ja", "zh"].contains(code.language), "\(identifier)")
    }
}
