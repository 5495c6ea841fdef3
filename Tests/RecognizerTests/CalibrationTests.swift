import Foundation
import Testing
import TestSupport
@testable import Recognizer

@Suite("Added forms, held-out halves and per-language biases")
struct CalibrationTests {
    static func text(_ word: [UInt32]) -> String { String(String.UnicodeScalarView(word.compactMap(Unicode.Scalar.init))) }

    /// A frequency list of 40 words whose last 20 are added dictionary forms.
    static func listWithForms() -> WordList {
        let letters = ["ka", "la", "ma", "ta", "ro"]
        var words: [(word: String, weight: Double)] = []
        for (i, a) in letters.enumerated() {
            for (j, b) in letters.enumerated() { words.append((a + b + "n", 1.0 / Double(1 + i * 5 + j))) }
        }
        for a in letters {
            for b in letters.prefix(3) { words.append((a + b + "om", 1e-6)) }
        }
        var list = WordList(language: "aa", kind: .frequency, words: words, source: "test")
        list.addedForms = Set(list.words.suffix(15).map(\.word))
        return list
    }

    @Test("a list line may mark an added form; any other third field is refused with its line")
    func readsFormMarkers() throws {
        let dir = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let good = dir.appendingPathComponent("good.tsv"), bad = dir.appendingPathComponent("bad.tsv")
        try "kala\t0.1\nkalami\t1e-06\tform\n".write(to: good, atomically: true, encoding: .utf8)
        try "kala\t0.1\nkalami\t1e-06\tforms\n".write(to: bad, atomically: true, encoding: .utf8)
        let list = try WordList.read(url: good, language: "aa", kind: .frequency, source: "")
        #expect(list.words.count == 2)
        #expect(list.addedForms.map(Self.text) == ["kalami"])
        #expect(throws: TrainingError.malformedList(path: bad.path, line: 2)) {
            try WordList.read(url: bad, language: "aa", kind: .frequency, source: "")
        }
    }

    @Test("added forms are items of the form slices only, and can be left out of training with the same items")
    func formSlices() {
        let list = Self.listWithForms()
        let forms = Set(list.addedForms.map(Self.text))
        let with = HeldOutSplit(lists: [list], every: 3, perLanguage: 1_000)
        let without = HeldOutSplit(lists: [list], every: 3, perLanguage: 1_000, trainOnAddedForms: false)
        let formItems = with.items.filter { $0.slice.hasSuffix("-forms") }.map(\.text)
        #expect(Set(formItems) == forms)
        #expect(with.items.filter { $0.slice.hasSuffix("-words") || $0.slice.hasSuffix("-pairs") }
            .allSatisfy { $0.text.split(separator: " ").allSatisfy { !forms.contains(String($0)) } })
        #expect(with.items == without.items && with.inTuningHalf == without.inTuningHalf)
        let trainedWith = Set(with.training[0].words.map { Self.text($0.word) })
        let trainedWithout = Set(without.training[0].words.map { Self.text($0.word) })
        let knownForms = Set(with.items.filter { $0.slice == "known-forms" }.map(\.text))
        #expect(!knownForms.isEmpty && knownForms.isSubset(of: trainedWith))
        #expect(trainedWithout.isDisjoint(with: forms))
        #expect(trainedWithout == trainedWith.subtracting(forms))
    }

    @Test("a pair item is in the same half as its two words, and both halves have items")
    func halves() throws {
        let split = HeldOutSplit(lists: try TrainingTests.lists() + [Self.listWithForms()], every: 3, perLanguage: 1_000)
        var half: [String: Bool] = [:]
        for (item, tuning) in zip(split.items, split.inTuningHalf) where !item.slice.hasSuffix("-pairs") {
            half["\(item.language) \(item.text)"] = tuning
        }
        for (item, tuning) in zip(split.items, split.inTuningHalf) where item.slice.hasSuffix("-pairs") {
            for word in item.text.split(separator: " ") { #expect(half["\(item.language) \(word)"] == tuning, "\(item.text)") }
        }
        #expect(!split.items(tuning: true).isEmpty && !split.items(tuning: false).isEmpty)
        #expect(split.items(tuning: true).count + split.items(tuning: false).count == split.items.count)
    }

    @Test("biases are fitted only where they help, and the fitted model answers the tuning items")
    func fit() throws {
        let model = try Trainer.train(lists: try TrainingTests.lists())
        // Words the model gives to aa, labelled bb: only a bias for bb (or against aa) can make them right.
        let items = ["kala", "maka", "laka"].map { LabeledText(language: "bb", text: $0, slice: "words") }
            + ["tobo", "otto"].map { LabeledText(language: "bb", text: $0, slice: "words") }
        let recognizer = LanguageRecognizer(model: model, constraints: ["aa", "bb"])
        #expect(items.prefix(3).allSatisfy { recognizer.recognize($0.text).dominantLanguage == "aa" })
        let fit = BiasCalibration.fit(model: model, items: items, grid: (-40...40).map(Float.init))
        let bias = fit.perWord
        #expect((bias["bb"] ?? 0) - (bias["aa"] ?? 0) > 0 || (fit.unlisted["bb"] ?? 0) > 0)
        #expect(fit.perWord["cc"] == nil && fit.unlisted["cc"] == nil, "no item of cc's script: cc is left alone")
        var parameters = model.parameters
        parameters.languageBias = bias
        parameters.unlistedBias = fit.unlisted
        let biased = LanguageRecognizer(model: model.with(parameters: parameters), constraints: ["aa", "bb"])
        let correct = items.filter { biased.recognize($0.text).dominantLanguage == "bb" }.count
        #expect(correct > 2)
        // Items the model already gets right leave every bias at 0.
        let right = ["kala", "tobo"].map { LabeledText(language: $0 == "kala" ? "aa" : "bb", text: $0, slice: "words") }
        let none = BiasCalibration.fit(model: model, items: right)
        #expect(none.perWord.values.allSatisfy { $0 == 0 } && none.unlisted.values.allSatisfy { $0 == 0 })
    }

    @Test("biases round-trip through the model file; a version 1 file (no biases) still loads")
    func biasesInFile() throws {
        var options = TrainingOptions()
        options.recognition.languageBias = ["bb": 0.7, "aa": -0.2]
        options.recognition.unlistedBias = ["bb": 1.5]
        let data = try Trainer.trainModelFile(lists: try TrainingTests.lists(), options: options)
        let decoded = try LanguageModel(data: data)
        #expect(decoded.parameters.languageBias == ["bb": 0.7, "aa": -0.2])
        #expect(decoded.parameters.unlistedBias == ["bb": 1.5, "aa": 0])
        #expect(try Trainer.encode(decoded) == data)
        // Version 1: the same file without the bias block (count and entries after λ and the cap).
        let plain = try ModelFileTests.tinyModelData()
        let json = Int(plain[8..<12].withUnsafeBytes { UInt32(littleEndian: $0.loadUnaligned(as: UInt32.self)) })
        var v1 = plain
        v1.removeSubrange((12 + json + 8)..<(12 + json + 12))
        v1[4] = 1
        let old = try LanguageModel(data: v1)
        #expect(old.parameters.languageBias.isEmpty)
        #expect(try Trainer.encode(old) == plain)
    }
}
