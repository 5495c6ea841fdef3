import Foundation
import Testing
@testable import LanguageRecognition

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
}
