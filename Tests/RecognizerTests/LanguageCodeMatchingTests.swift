import Foundation
import Testing
@testable import Recognizer

@Suite("A code means the model language of its likely script")
struct LanguageCodeMatchingTests {
    /// (code as typed, the model language it means, or nil when the model has no such language).
    static let table: [(String, String?)] = [
        ("zh-Hans", "zh-Hans"), ("zh", "zh-Hans"), ("zh-CN", "zh-Hans"), ("zh_Hans", "zh-Hans"), ("zh-SG", "zh-Hans"),
        ("sr", "sr"), ("sr-Cyrl", "sr"), ("sr-RS", "sr"), ("sr-Latn", nil),
        ("ru", "ru"), ("ru-RU", "ru"), ("pt-BR", "pt"), ("pt-PT", "pt"), ("en-AU", "en"), ("uk", "uk"),
        ("ja", "ja"), ("ja-JP", "ja"), ("ko", "ko"), ("el", "el"),
        ("xx", nil), ("", nil), ("fa", nil),
    ]

    @Test("codes resolve by language and likely script", arguments: table)
    func matching(_ code: String, _ expected: String?) {
        #expect(TestModel.shared.language(matching: code) == expected, "\(code)")
        #expect(TestModel.shared.supports(code) == (expected != nil), "\(code)")
    }

    @Test("every model language matches itself")
    func identity() {
        for code in TestModel.shared.languages { #expect(TestModel.shared.language(matching: code) == code) }
    }

    @Test("a constraint written without a script keeps that language: zh is Chinese")
    func constraintAlias() {
        let text = "我们今天去学校"
        let alias = LanguageRecognizer(model: TestModel.shared, constraints: ["ru", "en", "zh"]).recognize(text)
        let exact = LanguageRecognizer(model: TestModel.shared, constraints: ["ru", "en", "zh-Hans"]).recognize(text)
        #expect(alias.dominantLanguage == "zh-Hans")
        #expect(alias == exact)
        let serbian = LanguageRecognizer(model: TestModel.shared, constraints: ["sr-Cyrl", "ru"]).recognize("хвала")
        #expect(serbian.hypotheses.map(\.language).sorted() == ["ru", "sr"])
    }

    @Test("a hint written without a script weighs that language; the exact code wins over an alias")
    func hintAlias() {
        let candidates = ["ja", "zh-Hans"]
        let plain = LanguageRecognizer(model: TestModel.shared, constraints: candidates).recognize("日本")
        let hinted = LanguageRecognizer(model: TestModel.shared, constraints: candidates, hints: ["zh": 50]).recognize("日本")
        func p(_ r: Recognition) -> Double { r.hypotheses.first { $0.language == "zh-Hans" }?.probability ?? 0 }
        #expect(p(hinted) > p(plain))
        let both = LanguageRecognizer(model: TestModel.shared, constraints: candidates, hints: ["zh": 50, "zh-Hans": 1]).recognize("日本")
        let exact = LanguageRecognizer(model: TestModel.shared, constraints: candidates, hints: ["zh-Hans": 1]).recognize("日本")
        #expect(both == exact)
    }
}
