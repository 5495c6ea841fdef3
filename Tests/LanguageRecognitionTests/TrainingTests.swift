import Foundation
import Testing
@testable import LanguageRecognition

@Suite("Training round-trip on a tiny word list")
struct TrainingTests {
    static func lists() throws -> [WordList] {
        try WordList.readExport(directory: TestModel.fixture("tiny-lists"))
    }

    @Test("reads the export folder")
    func readsExport() throws {
        let lists = try Self.lists()
        #expect(lists.map(\.language) == ["aa", "bb", "cc"])
        #expect(lists.map(\.kind) == [.frequency, .frequency, .forms])
        #expect(lists[0].words.count == 8)
    }

    @Test("training is deterministic and the file round-trips byte for byte")
    func roundTrip() throws {
        let lists = try Self.lists()
        let first = try Trainer.trainModelFile(lists: lists)
        let second = try Trainer.trainModelFile(lists: lists)
        #expect(first == second)
        let decoded = try LanguageModel(data: first)
        #expect(try Trainer.encode(decoded) == first)
        #expect(decoded.languages.prefix(3) == ["aa", "bb", "cc"])
    }

    @Test("a trained model recognises its own words")
    func recognisesTrainingWords() throws {
        let model = try Trainer.train(lists: try Self.lists())
        let recognizer = LanguageRecognizer(model: model, constraints: ["aa", "bb", "cc"])
        for (text, expected) in [("kala", "aa"), ("makala", "aa"), ("tobo", "bb"), ("botto", "bb"), ("рига", "cc"),
                                 ("kalamaka", "aa"), ("bottobo", "bb")] {
            #expect(recognizer.recognize(text).dominantLanguage == expected, "\(text)")
        }
    }

    @Test("a held-out split keeps every word in exactly one part")
    func heldOutSplit() throws {
        let lists = try Self.lists()
        let split = HeldOutSplit(lists: lists, every: 3, perLanguage: 10)
        for (list, kept) in zip(lists, split.training) {
            #expect(kept.words.count < list.words.count || list.words.count < 3)
        }
        #expect(!split.items.isEmpty)
        #expect(Set(split.items.map(\.slice)).isSubset(of: ["held-out-words", "held-out-pairs", "known-words", "known-pairs"]))
    }

    @Test("a missing export names the file and the fix")
    func missingExport() {
        let url = URL(fileURLWithPath: "/nonexistent/lists")
        #expect(throws: TrainingError.missingExport(path: "/nonexistent/lists/manifest.tsv")) {
            try WordList.readExport(directory: url)
        }
        #expect(TrainingError.missingExport(path: "x").description.contains("scripts/train-model --export-only"))
    }
}
