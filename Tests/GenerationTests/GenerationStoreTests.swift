@testable import Support
import Foundation
@testable import Generation
import GenerationTestSupport
import Corpus
import TestSupport
import Testing

/// The per-item logs of a generation run: a fresh run replaces them, a resumed one keeps them with each
/// torn last line truncated away (and the records of items the corpus lost removed), the cursor reads the
/// records back in canonical order, and a merge concatenates the shards' diagnostics and replies.
struct GenerationStoreTests {
    static let manifest = try! manifest(of: outputs(3))
    static func manifest(of outputs: [ReplyPipeline.Output]) -> ResumeManifest {
        ResumeManifest(settings: GenerationFixtures.settings, items: outputs.map { CorpusItem(id: $0.record.itemID, lang: $0.record.lang, text: "text") })
    }
    static let logs = [GenerationOutput.recordsLog, GenerationOutput.diagnosticsFile, GenerationOutput.repliesFile]

    static func outputs(_ count: Int) throws -> [ReplyPipeline.Output] {
        try GenerationFixtures.records("base").prefix(count).map { record in
            ReplyPipeline.Output(record: record, reply: "reply to \(record.itemID)",
                                 events: [DiagnosticEvent(itemID: record.itemID, lang: record.lang.identifier, stage: "generate", outcome: "ok")])
        }
    }

    static func text(_ directory: URL, _ file: String) throws -> String {
        try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
    }

    @Test func aFreshRunReplacesTheLogsAndAnyReport() throws {
        let directory = try Fixture.temporaryDirectory()
        for file in Self.logs + [GenerationOutput.markdownFile] { try "old\n".write(to: directory.appendingPathComponent(file), atomically: true, encoding: .utf8) }
        let store = try GenerationStore(directory: directory, manifest: Self.manifest, resume: false, writeReplies: true)
        for output in try Self.outputs(2) { try store.append(output) }
        #expect(store.kept.isEmpty && store.recorded == 2)
        #expect(try GenerationStore.records(in: directory).map(\.key) == Self.outputs(2).map(\.record.key))
        #expect(try GenerationStore.replies(in: directory).map(\.reply) == Self.outputs(2).map(\.reply))
        #expect(try Self.text(directory, GenerationOutput.diagnosticsFile).split(separator: "\n").count == 2)
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent(GenerationOutput.markdownFile).path))
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent(ResumeManifest.file).path))
    }

    @Test func aResumedRunKeepsTheRecordsAndTruncatesTornLines() throws {
        let directory = try Fixture.temporaryDirectory()
        let outputs = try Self.outputs(3)
        do {
            let store = try GenerationStore(directory: directory, manifest: Self.manifest, resume: false, writeReplies: true)
            for output in outputs.prefix(2) { try store.append(output) }
        }
        let before = try Self.logs.map { try Self.text(directory, $0) }
        for file in Self.logs {
            let handle = try FileHandle(forWritingTo: directory.appendingPathComponent(file))
            try handle.seekToEnd()
            try handle.write(contentsOf: Data("{\"item_id\": \"torn".utf8))
            try handle.close()
        }
        let store = try GenerationStore(directory: directory, manifest: Self.manifest, resume: true, writeReplies: true)
        #expect(store.kept.map(\.key) == outputs.prefix(2).map(\.record.key))
        #expect(try Self.logs.map { try Self.text(directory, $0) } == before)
        try store.append(outputs[2])
        #expect(store.recorded == 3)
        #expect(try GenerationStore.records(in: directory).map(\.key) == outputs.map(\.record.key))
        #expect(try store.cursor().remaining() == GenerationStore.ordered(outputs.map(\.record)), "read back in canonical order")
        #expect(try store.finish() == 3)
        #expect(try GenerationStore.records(in: directory).map(\.key) == outputs.map(\.record.key), "finishing writes nothing")
    }

    /// A resumed run whose corpus lost an item keeps the log to this run's records: the lost item's are removed
    /// when the store opens, so the log and the report count the same records.
    @Test func aResumedRunDropsTheRecordsOfItemsTheCorpusLost() throws {
        let directory = try Fixture.temporaryDirectory()
        let outputs = try Self.outputs(3)
        let store = try GenerationStore(directory: directory, manifest: Self.manifest, resume: false, writeReplies: true)
        for output in outputs { try store.append(output) }
        let lost = outputs[0].record.itemID
        let kept = outputs.filter { $0.record.itemID != lost }
        let resumed = try GenerationStore(directory: directory, manifest: Self.manifest(of: kept), resume: true, writeReplies: true)
        #expect(resumed.kept.map(\.key) == kept.map(\.record.key))
        #expect(try GenerationStore.records(in: directory).map(\.key) == kept.map(\.record.key))
        #expect(try resumed.cursor().remaining().count == kept.count)
    }

    @Test func withoutRepliesNoRepliesLogIsWritten() throws {
        let directory = try Fixture.temporaryDirectory()
        let store = try GenerationStore(directory: directory, manifest: Self.manifest, resume: false, writeReplies: false)
        try store.append(try Self.outputs(1)[0])
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent(GenerationOutput.repliesFile).path))
        #expect(try GenerationStore.replies(in: directory).isEmpty)
    }

    /// The merged records are written whole (`write`), from the shards' reports.
    @Test func concatenatingShardsJoinsTheirDiagnosticsAndReplies() throws {
        let shards = try (0..<2).map { _ in try Fixture.temporaryDirectory() }, merged = try Fixture.temporaryDirectory()
        let outputs = try Self.outputs(2)
        for (shard, output) in zip(shards, outputs) {
            let store = try GenerationStore(directory: shard, manifest: Self.manifest, resume: false, writeReplies: shard == shards[0])
            try store.append(output)
        }
        try GenerationStore.concatenate(shards, into: merged)
        #expect(!FileManager.default.fileExists(atPath: merged.appendingPathComponent(GenerationOutput.recordsLog).path))
        #expect(try GenerationStore.replies(in: merged).map(\.reply) == [outputs[0].reply])
        #expect(try Self.text(merged, GenerationOutput.diagnosticsFile) == Self.text(shards[0], GenerationOutput.diagnosticsFile)
            + Self.text(shards[1], GenerationOutput.diagnosticsFile))
    }
}
