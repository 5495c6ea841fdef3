@testable import Corpus
import Testing

struct LanguageCodeTests {
    @Test(arguments: [
        ("rus", "ru"), ("ru-RU", "ru"), ("RU", "ru"), ("ru_RU", "ru"), ("ukr", "uk"), ("srp", "sr"),
        ("zh-Hans", "zh-Hans"), ("zh-hans", "zh-Hans"), ("sr-Cyrl", "sr-Cyrl"), ("sr-Latn", "sr-Latn"),
        ("pt-PT", "pt-PT"), ("pt-BR", "pt"), ("en-AU", "en-AU"), ("en-US", "en"), ("kk", "kk"), ("nb", "nb"),
    ])
    func normalises(raw: String, expected: String) throws {
        #expect(try LanguageCode(raw).identifier == expected)
    }

    @Test(arguments: ["xx", "qqq", "", "und", "e1", "klingon", "ru-RU-x-foo", "r"])
    func rejectsUnknownCodes(raw: String) {
        #expect(throws: LanguageCodeError.self) { try LanguageCode(raw) }
    }

    @Test func unknownCodeMessageSaysWhatToUse() {
        #expect(LanguageCodeError.unknown("xx").description == "unknown language code 'xx' (use an ISO 639 code such as 'ru', 'uk' or 'zh-Hans')")
    }

    @Test(arguments: [
        ("en-AU", "en", true), ("sr", "sr-Cyrl", true), ("zh", "zh-Hans", true), ("pt-PT", "pt", true),
        ("sr-Latn", "sr", false), ("ru", "uk", false), ("nb", "da", false),
    ])
    func equivalence(a: String, b: String, equivalent: Bool) throws {
        #expect(try LanguageCode(a).isEquivalent(to: LanguageCode(b)) == equivalent)
    }

    @Test func namesForPrompts() throws {
        #expect(try LanguageCode("uk").englishName == "Ukrainian")
        #expect(try LanguageCode("ru").nativeName == "русский")
    }
}
