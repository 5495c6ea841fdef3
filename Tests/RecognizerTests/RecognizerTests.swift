import Foundation
import Testing
@testable import Recognizer

@Suite("LanguageRecognizer API promises")
struct RecognizerTests {
    static let texts = [
        "Привет, как дела?", "дом", "вода", "хліб", "Дзякуй", "Қазақстан", "љубав", "ќе", "Hello there", "Guten Morgen",
        "hvordan går det", "obrigado", "dziękuję", "こんにちは", "你好吗", "안녕하세요", "Γειά σου", "שלום", "mixed текст",
        "x", "ß", "Ё",
    ]
    static let candidateSets: [[String]] = [
        [], ["ru"], ["ru", "uk"], ["ru", "uk", "bg"], TestModel.cyrillic, ["en", "de"], ["ja", "zh-Hans"], ["ko", "en"],
        TestModel.corpusLanguages, ["xx", "ru"], ["el", "sr"],
    ]

    @Test("nothing outside the constraints is ever returned", arguments: candidateSets)
    func constraintsHold(_ candidates: [String]) {
        var recognizer = LanguageRecognizer(model: TestModel.shared)
        recognizer.languageConstraints = candidates
        for text in Self.texts {
            let result = recognizer.recognize(text)
            for hypothesis in result.hypotheses {
                #expect(candidates.isEmpty || candidates.contains(hypothesis.language), "\(text) → \(hypothesis.language)")
            }
        }
    }

    @Test("probabilities sum to 1 over the candidates", arguments: candidateSets)
    func probabilitiesSumToOne(_ candidates: [String]) {
        let recognizer = LanguageRecognizer(model: TestModel.shared, constraints: candidates, hints: ["ru": 0.5, "en": 0.3])
        for text in Self.texts {
            let result = recognizer.recognize(text)
            // Every text has letters the model knows: a result without hypotheses would be a recognizer that gave up.
            #expect(!result.hypotheses.isEmpty, "\(text): no hypothesis over \(candidates)")
            let sum = result.hypotheses.map(\.probability).reduce(0, +)
            #expect(abs(sum - 1) < 1e-9, "\(text): \(sum)")
            #expect(result.hypotheses.allSatisfy { $0.probability > 0 && $0.probability <= 1 })
            #expect(zip(result.hypotheses, result.hypotheses.dropFirst()).allSatisfy { $0.probability >= $1.probability })
        }
    }

    @Test("text without letters is undetermined, never a guess",
          arguments: ["", "   ", "123 456", "!!! ??? ...", "😀👍", "https://example.com/путь", "someone@example.org",
                      "<b></b>", "@mention", "12:30", "&amp; &lt;"])
    func noLetters(_ text: String) {
        var recognizer = LanguageRecognizer(model: TestModel.shared)
        recognizer.languageConstraints = ["ru", "en"]
        recognizer.process(text)
        #expect(recognizer.dominantLanguage == nil)
        #expect(recognizer.languageHypotheses(withMaximum: 5).isEmpty)
        #expect(recognizer.recognize().evidence == .noLetters)
        #expect(recognizer.recognize().languageOrUndetermined == "und")
    }

    @Test("hints move ambiguous items")
    func hintsMoveAmbiguous() {
        // "мама" and "вода" are words of every candidate: the hint decides.
        for text in ["мама", "вода"] {
            for favoured in ["ru", "bg", "mk", "sr"] {
                let r = LanguageRecognizer(model: TestModel.shared, constraints: ["ru", "bg", "mk", "sr"], hints: [favoured: 100])
                #expect(r.recognize(text).dominantLanguage == favoured, "\(text) with hint \(favoured)")
            }
        }
    }

    @Test("hints do not move unambiguous items",
          arguments: [("їжачок", "uk"), ("ўсё", "be"), ("ќерка", "mk"), ("ђак", "sr"), ("қазақша", "kk"),
                      ("Как у тебя дела сегодня?", "ru"), ("Thank you very much", "en")])
    func hintsKeepUnambiguous(_ text: String, _ expected: String) {
        let hinted = TestModel.corpusLanguages.filter { $0 != expected }.first { TestModel.shared.script(of: $0) == TestModel.shared.script(of: expected) }!
        let r = LanguageRecognizer(model: TestModel.shared, constraints: TestModel.corpusLanguages, hints: [hinted: 0.9])
        #expect(r.recognize(text).dominantLanguage == expected, "\(text) with hint \(hinted)")
    }

    @Test("unhinted candidates get 1/N, and hints renormalise")
    func defaultHintWeight() {
        let prior = CandidatePrior(model: TestModel.shared, constraints: ["ru", "uk", "bg"], hints: ["ru": 0.5], defaultWeight: nil)
        let index = TestModel.shared.indexOfLanguage
        #expect(abs(prior.logPrior[index["ru"]!] - log(0.5)) < 1e-12)
        #expect(abs(prior.logPrior[index["uk"]!] - log(1.0 / 3)) < 1e-12)
        #expect(prior.logPrior[index["en"]!] == -.infinity)
        let zero = CandidatePrior(model: TestModel.shared, constraints: ["ru", "uk"], hints: ["ru": 0, "uk": -1], defaultWeight: nil)
        #expect(zero.logPrior[index["ru"]!] == 0 && zero.logPrior[index["uk"]!] == 0, "all-zero weights fall back to uniform")
    }

    @Test("scripts route: kana is Japanese, Hangul Korean, Han-only Chinese")
    func scriptRouting() {
        let r = LanguageRecognizer(model: TestModel.shared, constraints: TestModel.corpusLanguages)
        #expect(r.recognize("ありがとう").dominantLanguage == "ja")
        #expect(r.recognize("감사합니다").dominantLanguage == "ko")
        #expect(r.recognize("谢谢你").dominantLanguage == "zh-Hans")
        #expect(r.recognize("Я люблю New York и Paris").dominantLanguage == "ru", "names in Latin do not outvote Cyrillic")
        #expect(r.recognize("Hello Привет").dominantLanguage == "ru", "Latin loses a tie in words")
        #expect(r.recognize("Hello John, привет").dominantLanguage == "en", "more words win")
        #expect(r.recognize("これはiPhoneです").dominantLanguage == "ja")
        #expect(r.recognize("Γειά σου").evidence == .priorOnly, "Greek is not a candidate: prior only")
        #expect(LanguageRecognizer(model: TestModel.shared).recognize("Γειά σου").dominantLanguage == "el")
    }

    @Test("no known candidate is an explicit outcome")
    func noCandidates() {
        let r = LanguageRecognizer(model: TestModel.shared, constraints: ["xx", "yy"])
        #expect(r.recognize("hello").evidence == .noCandidates)
        #expect(r.recognize("hello").dominantLanguage == nil)
    }

    @Test("process accumulates, reset returns to the initial state")
    func processAndReset() {
        var r = LanguageRecognizer(model: TestModel.shared)
        r.languageConstraints = ["ru", "uk"]
        r.languageHints = ["ru": 0.9]
        r.process("дякую")
        #expect(r.dominantLanguage == "uk")
        r.process("і")
        #expect(r.rankedHypotheses(withMaximum: 1).count == 1)
        #expect(r.languageHypotheses(withMaximum: 10).keys.sorted() == ["ru", "uk"])
        r.reset()
        #expect(r.dominantLanguage == nil)
        #expect(r.languageConstraints.isEmpty && r.languageHints.isEmpty)
        r.process("Guten Morgen")
        #expect(r.dominantLanguage == "de")
    }

    @Test("same text, same model, same answer — across loads too")
    func determinism() throws {
        let other = try LanguageModel(contentsOf: TestModel.url)
        let a = LanguageRecognizer(model: TestModel.shared, constraints: TestModel.corpusLanguages, hints: ["ru": 0.5])
        let b = LanguageRecognizer(model: other, constraints: TestModel.corpusLanguages, hints: ["ru": 0.5])
        for text in Self.texts {
            #expect(a.recognize(text) == a.recognize(text))
            #expect(a.recognize(text) == b.recognize(text))
        }
    }

    @Test("one model serves many concurrent recognizers with the sequential results")
    func concurrentUse() async {
        let model = TestModel.shared
        let expected = Self.texts.map { LanguageRecognizer(model: model, constraints: TestModel.cyrillic).recognize($0) }
        await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    let recognizer = LanguageRecognizer(model: model, constraints: TestModel.cyrillic)
                    var same = true
                    for _ in 0..<50 {
                        for (i, text) in Self.texts.enumerated() where recognizer.recognize(text) != expected[i] { same = false }
                    }
                    return same
                }
            }
            for await same in group { #expect(same) }
        }
    }
}
