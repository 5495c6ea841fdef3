import Support
@testable import Recognizer
import Testing

@Suite("Accuracy evaluation of held-out items")
struct AccuracyEvaluationTests {
    /// aa: 3 words, 2 right; bb: 1 word, wrong (called aa); one abstention on a pair.
    @Test("macro and micro accuracy per slice, abstentions count as errors")
    func perSliceAccuracy() {
        let items = [
            LabeledText(language: "aa", text: "a1", slice: "single-words"), LabeledText(language: "aa", text: "a2", slice: "single-words"),
            LabeledText(language: "aa", text: "a3", slice: "single-words"), LabeledText(language: "bb", text: "b1", slice: "single-words"),
            LabeledText(language: "bb", text: "b2 b3", slice: "word-pairs"),
        ]
        let answers: [String: String?] = ["a1": "aa", "a2": "aa", "a3": "bb", "b1": "aa", "b2 b3": nil]
        let evaluation = AccuracyEvaluation(items: items) { answers[$0] ?? nil }
        #expect(evaluation.sliceNames == ["single-words", "word-pairs", "all"])
        #expect(evaluation.items("single-words") == 4 && evaluation.items() == 5)
        #expect(abs(evaluation.macroAccuracy("single-words") - (2.0 / 3 + 0) / 2) < 1e-12)
        #expect(evaluation.microAccuracy("single-words") == 0.5)
        #expect(evaluation.macroAccuracy("word-pairs") == 0)
        #expect(evaluation.microAccuracy() == 0.4)
        #expect(evaluation.errors.map(\.item.text) == ["a3", "b1", "b2 b3"])
        #expect(evaluation.slices["all"]?.labels["aa"]?.falsePositives == 1)
    }
}
