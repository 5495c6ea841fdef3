import Support
@testable import Detection
import Foundation
@testable import Generation
import GenerationTestSupport
@testable import Corpus
import Backend
import TestSupport
import Testing

/// chrF as sacrebleu computes it, the references file beside the chat corpus, and the translate-in's score on a
/// record, from a real `exec:` translator whose output is known.
struct TranslationQualityTests {
    /// Each pair's score from sacrebleu 2.x's `CHRF().sentence_score(hypothesis, [reference])`.
    @Test(arguments: [("I need help with my account", "I need help with my account, please.", 75.18768063948544),
                      ("Hello, how you are?", "Hi! How are you?", 21.742764213181296),
                      ("the cat", "dog", 0.0),
                      ("Сегодня у меня был выходной", "I had a day off today.", 0.0),
                      ("I had a day off today.", "I had a day off today.", 100.0)])
    func chrFAgreesWithSacrebleu(hypothesis: String, reference: String, expected: Double) {
        #expect(abs(ChrF.sentence(hypothesis, reference: reference) - expected) < 1e-9)
    }

    @Test func theChatCorpusHasAReferenceForEveryOtherLanguagesMessage() throws {
        let corpus = try CorpusLoader().load([PipelineFixture.repository.appendingPathComponent("Corpora/chat-prompts.tsv").path])
        let references = try TranslationReferences.load(PipelineFixture.repository.appendingPathComponent("Corpora/chat-prompts.references.tsv").path,
                                                        items: Set(corpus.items.map(\.id)))
        #expect(Set(references.byItem.keys) == Set(corpus.items.filter { $0.lang.language != "en" }.map(\.id)))
    }

    @Test(arguments: [("id\tref\nx\ta\n", "r.tsv:1: the header must be id<TAB>reference_en"),
                      ("id\treference_en\nx\ta\tb\n", "r.tsv:2: expected 2 tab-separated fields (id, reference_en), found 3"),
                      ("id\treference_en\nx\ta\nx\tb\n", "r.tsv:3: item x has a second reference"),
                      ("id\treference_en\nx\ta\nnope\tb\n", "r.tsv:3: no item nope in the generation corpus"),
                      ("id\treference_en\nx\t \n", "r.tsv:2: item x has an empty reference")])
    func aBadReferencesFileNamesItsLine(text: String, message: String) throws {
        let directory = try Fixture.temporaryDirectory()
        let path = directory.appendingPathComponent("r.tsv").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        #expect { _ = try TranslationReferences.load(path, items: ["x"]) } throws: { "\($0)" == "\(directory.path)/\(message)" }
    }

    @Test func aShardReadsTheReferencesOfItemsItDoesNotHold() throws {
        let directory = try Fixture.temporaryDirectory()
        let path = directory.appendingPathComponent("r.tsv").path
        try Data("id\treference_en\nx\ta\nelsewhere\tb\n".utf8).write(to: URL(fileURLWithPath: path))
        #expect(try TranslationReferences.load(path, items: nil).byItem == ["x": "a", "elsewhere": "b"])
    }

    @Test func theMeanHasItsStudentTInterval() throws {
        let (mean, ci) = TranslationQuality.summary([50, 60, 70])
        #expect(mean == 60)
        // sd 10, se 10/√3, t(0.975, 2) = 4.302653
        let interval = try #require(ci)
        #expect(abs(interval.low - 35.1586) < 1e-3 && abs(interval.high - 84.8414) < 1e-3)
        #expect(TranslationQuality.summary([42]).ci == nil)
    }

    @Test(.needs(.server)) func thePivotRecordsTheTranslateInScore() async throws {
        let script = FileManager.default.temporaryDirectory.appendingPathComponent("langbench-fixed-translator-\(UUID().uuidString.prefix(8)).py")
        try Data("""
            import json, sys
            for line in sys.stdin:
                request = json.loads(line)
                print(json.dumps({"id": request["id"], "text": "I need help with my account"}), flush=True)
            """.utf8).write(to: script)
        let translator = ExecTranslator(command: "python3 \(script.path)")
        defer { Task { await translator.shutdown() } }
        var pipeline = try PipelineFixture.pipeline(backend: try await TestServers.shared.server().client(requestTimeout: 60), detector: FixedDetector(lang: "es"))
        pipeline.translator = translator
        pipeline.references = ["es-1": "I need help with my account, please."]
        let output = try await PipelineFixture.reply(pipeline, PipelineFixture.item("es-1", "es", "Necesito ayuda con mi cuenta, por favor."), .pivot)
        #expect(output.record.translateInChrF == 75.19)
        let direct = try await PipelineFixture.reply(pipeline, PipelineFixture.item("es-1", "es", "Necesito ayuda con mi cuenta, por favor."), .direct)
        #expect(direct.record.translateInChrF == nil)
    }
}
