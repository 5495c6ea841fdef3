import Foundation
import Testing
@testable import Recognizer

@Suite("Model file")
struct ModelFileTests {
    static func tinyModelData() throws -> Data {
        try Trainer.trainModelFile(lists: try WordList.readExport(directory: TestModel.fixture("tiny-lists")))
    }

    @Test("rejects a file that is not a model")
    func wrongMagic() {
        #expect(throws: ModelError.malformed(path: "<data>", reason: "not a recognizer model")) {
            try LanguageModel(data: Data("NOPE0000".utf8))
        }
    }

    @Test("rejects another format version with the fix in the message")
    func wrongVersion() throws {
        var data = try Self.tinyModelData()
        data[4] = 99
        #expect(throws: ModelError.unsupportedVersion(path: "<data>", version: 99)) { try LanguageModel(data: data) }
        #expect(ModelError.unsupportedVersion(path: "m", version: 99).description.contains("scripts/train-model"))
    }

    @Test("rejects truncated files at every length")
    func truncated() throws {
        let data = try Self.tinyModelData()
        for length in stride(from: 0, to: data.count, by: max(1, data.count / 200)) {
            #expect(throws: ModelError.self) { try LanguageModel(data: data.prefix(length)) }
        }
    }

    @Test("the committed model records its provenance")
    func provenance() {
        let metadata = TestModel.shared.metadata
        #expect(metadata.licence.contains("CC BY-SA 4.0"))
        #expect(metadata.sources.count >= 24)
        #expect(metadata.training.contains { $0.hasPrefix("lambda=") })
        for code in TestModel.corpusLanguages { #expect(TestModel.shared.supports(code), "\(code)") }
    }

    @Test("reads aligned tables in place and copies the others, with the same elements")
    func tablesInPlace() {
        let bytes = Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        let aligned = bytes.withUnsafeBytes { Int(bitPattern: $0.baseAddress!) % 4 == 0 ? 0 : 4 - Int(bitPattern: $0.baseAddress!) % 4 }
        for start in [aligned, aligned + 1] {
            let range = (bytes.startIndex + start)..<(bytes.startIndex + start + 400)
            let copied = bytes[range].withUnsafeBytes { FixedBuffer<UInt32>(copying: $0, count: 100) }
            let inPlace = FixedBuffer<UInt32>(inPlace: bytes, range: range, count: 100)
            #expect((inPlace != nil) == (start == aligned), "only aligned elements are read in place")
            if let inPlace { #expect(inPlace.array == copied.array) }
        }
        #expect(FixedBuffer<UInt32>(inPlace: Data(count: 16), range: 0..<16, count: 4) == nil, "a few bytes may move: copied")
    }

    @Test("a model read from a file recognizes as the one decoded from its bytes")
    func modelFromAFile() throws {
        let data = try Self.tinyModelData()
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("model-\(UUID().uuidString).lbrm")
        try data.write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let mapped = try LanguageModel(contentsOf: url), decoded = try LanguageModel(data: data)
        for text in ["дом", "house", "будинок", "Haus", "x"] {
            #expect(mapped.recognize(text, prior: CandidatePrior(model: mapped, constraints: [], hints: [:], defaultWeight: nil))
                    == decoded.recognize(text, prior: CandidatePrior(model: decoded, constraints: [], hints: [:], defaultWeight: nil)))
        }
    }
}

/// A model whose structure is well-formed but cannot be used is refused at load, naming what is wrong: a hash table
/// with no empty slot would make a probe for an absent key run forever, a parameter that is not a number turns every
/// score into NaN (`und` for everything, exit 0).
struct UnusableModelTests {
    static func contents() throws -> ModelFile.Contents {
        try ModelFile.decode(try ModelFileTests.tinyModelData(), path: "<data>")
    }

    /// `contents` with script `index`'s table of order `order` filled: every slot taken.
    static func filled(_ contents: ModelFile.Contents, order: Int) -> ModelFile.Contents {
        var contents = contents
        let script = contents.scripts[0]
        var orders = script.ngrams.orders
        let full = orders[order - 1]
        orders[order - 1] = NGramTable.Order(capacity: full.capacity, keys: FixedBuffer([UInt32](repeating: 7, count: full.capacity)),
                                             logp: full.logp, bow: full.bow)
        contents.scripts[0] = ScriptModel(script: script.script, languages: script.languages, alphabet: script.alphabet,
                                          ngrams: NGramTable(width: script.ngrams.width, orders: orders), words: script.words)
        return contents
    }

    @Test(arguments: 1...5)
    func aTableWithoutAnEmptySlotIsRefusedNamingIt(order: Int) throws {
        let contents = try Self.contents()
        let data = try ModelFile.encode(Self.filled(contents, order: order))
        #expect(throws: ModelError.malformed(path: "<data>", reason: "\(contents.scripts[0].script) n-gram table of order \(order) has no empty slot")) {
            try LanguageModel(data: data)
        }
    }

    @Test(arguments: [Float.nan, .infinity, -.infinity])
    func aParameterThatIsNotANumberIsRefused(lambda: Float) throws {
        var contents = try Self.contents()
        contents.parameters.lambda = lambda
        #expect(throws: ModelError.malformed(path: "<data>", reason: "parameter lambda is \(lambda), not a finite number")) {
            try LanguageModel(data: try ModelFile.encode(contents))
        }
    }

    /// The second guard: a probe over a table with no empty slot visits each slot once and ends (this test would hang without it).
    @Test func aProbeOverAFullTableEnds() {
        var visits = 0
        HashSlots.probe(12_345, capacity: 17) { _ in
            visits += 1
            return true
        }
        #expect(visits == 17)
    }
}
