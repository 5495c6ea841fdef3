import Foundation
import Testing
@testable import Recognizer

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
        // perLanguage above every list's size: every word becomes an item, so the parts can be compared whole.
        let split = HeldOutSplit(lists: lists, every: 3, perLanguage: 1_000)
        func text(_ word: [UInt32]) -> String { String(String.UnicodeScalarView(word.compactMap(Unicode.Scalar.init))) }
        var heldSomewhere = false
        for (list, kept) in zip(lists, split.training) {
            let all = list.words.map { text($0.word) }, training = Set(kept.words.map { text($0.word) })
            let held = split.items.filter { $0.language == list.language && $0.slice == "held-out-words" }.map(\.text)
            let known = split.items.filter { $0.language == list.language && $0.slice == "known-words" }.map(\.text)
            #expect(Set(held).isDisjoint(with: training), "\(list.language): a held-out word is in training")
            #expect(Set(known) == training, "\(list.language): known items are the training words")
            #expect(held.count + known.count == all.count && Set(held + known) == Set(all), "\(list.language): every word in one part")
            heldSomewhere = heldSomewhere || !held.isEmpty
        }
        #expect(heldSomewhere, "every: 3 holds out some word")
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
