import Support
import Detection
import Foundation
@testable import Generation
import GenerationTestSupport
@testable import Suite
import Backend
@testable import Comparison
import Provenance
import ByteIO
import TestSupport
import Testing

/// The scale recipe end to end: `langbench run --shard 1/2` and `--shard 2/2` as two processes at the same
/// time, each against its own real llama-server (one thread each, as two machines would be), then
/// `langbench merge`, give the figures one unsharded run gives. Sampling is greedy, so every reply is
/// determined by its prompt; timing figures differ by nature and are not compared.
@Suite(.serialized)
struct ShardedServersMergeTests {
    /// Two messages the profile answers directly and two it pivots (route auto), few enough to stay quick.
    static let chat = [("c-en", "en", "I finally finished my exam today!"), ("c-de", "de", "Heute war ein langer Tag."),
                       ("c-ru", "ru", "Привет! Как прошёл твой день?"), ("c-uk", "uk", "Я сьогодні багато працював.")]

    /// A corpus of `rows` (id, lang, text) in `directory`.
    static func corpus(_ rows: [(String, String, String)], name: String, in directory: URL) throws -> String {
        let url = directory.appendingPathComponent(name)
        try ("id\tlang\ttext\ttags\n" + rows.map { "\($0.0)\t\($0.1)\t\($0.2)\t" }.joined(separator: "\n") + "\n")
            .write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    /// The shipped profile with greedy sampling and short replies.
    static func greedyProfile(in directory: URL) throws -> String {
        let source = PipelineFixture.repository.appendingPathComponent(ModelProfile.defaultResource)
        var profile = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: source)) as? [String: Any])
        for key in ["sampling", "translation_sampling"] {
            var sampling = try #require(profile[key] as? [String: Any])
            sampling["temperature"] = 0.0
            sampling["top_k"] = 1
            sampling["n_predict"] = 16
            profile[key] = sampling
        }
        let url = directory.appendingPathComponent("greedy-profile.json")
        try JSONSerialization.data(withJSONObject: profile).write(to: url)
        return url.path
    }

    /// The suite config: detection over a few words, generation over `chat`.
    static func config(in directory: URL) throws -> String {
        let words = (0..<12).map { i in i < 7 ? ("w-uk-\(i)", "uk", "слово\(i)") : ("w-ru-\(i)", "ru", "слово\(i)") }
        let detection = try corpus(words, name: "words.tsv", in: directory), generation = try corpus(chat, name: "chat.tsv", in: directory)
        let url = directory.appendingPathComponent("bench.json")
        try """
        {"schema_version": 1, "detection": {"corpora": ["\(detection)"], "detector": "builtin"},
         "generation": {"corpora": ["\(generation)"], "profile": "\(try greedyProfile(in: directory))", "route": "auto", "warmup": 0, "seed": 7}}
        """.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    /// A record without what depends on timing (durations, speeds); everything else must match across runs.
    static func untimed(_ record: GenerationRecord) -> GenerationRecord {
        var record = record
        record.totalMs = 0
        record.ttftMs = nil
        record.tpotMs = nil
        record.detectMs = 0
        record.translateIn = nil
        record.translateHistoryMs = nil
        record.generate = nil
        record.translateOut = nil
        record.generateTokensPerSecond = nil
        return record
    }

    /// A summary row's figures that do not depend on timing.
    static func counts(_ row: GenerationReport.SummaryRow) -> [String] {
        ["\(row.route)", row.slice, "\(row.n)", "\(row.modelReplies)", "\(row.completionTokensP50 ?? -1)", "\(row.fallbackRate)",
         "\(row.fidelity ?? -1)", "\(row.servedRate)", "\(row.degenerateOutput)"]
    }

    static func replies(_ directory: String) throws -> [String: String] {
        let lines = try JSONLinesLog<ReplyRecord>.read(URL(fileURLWithPath: directory).appendingPathComponent(GenerationOutput.repliesFile))
        #expect(Set(lines.map(\.key)).count == lines.count, "one reply per record in \(directory)")
        return Dictionary(lines.map { ($0.key, $0.reply) }, uniquingKeysWith: { a, _ in a })
    }

    static func run(_ arguments: [String], name: String, in directory: URL) throws -> LangBenchBinary {
        try LangBenchBinary.start(arguments, stderrFile: directory.appendingPathComponent("\(name).stderr"))
    }

    @Test(.needs(.server)) func shardsOnSeparateServersMergeIntoTheUnshardedFigures() async throws {
        let first = try await ServerPoolTests.launch(), second = try await ServerPoolTests.launch()
        defer { first.stop(); second.stop() }
        let directory = try Fixture.temporaryDirectory("langbench-sharded-servers")
        let config = try Self.config(in: directory)
        let path = { (name: String) in directory.appendingPathComponent(name).path }
        let suite = { (out: String, url: URL) in ["run", "--config", config, "--server-url", url.absoluteString, "--out", out, "--quiet"] }

        let shards = try [(1, first.baseURL), (2, second.baseURL)].map { index, url in
            try Self.run(suite(path("shard-\(index)"), url) + ["--shard", "\(index)/2"], name: "shard-\(index)", in: directory)
        }
        for shard in shards {
            let status = await shard.exitStatus(within: 300)
            #expect(status == 0, "\(shard.stderr)")
        }
        let whole = try Self.run(suite(path("whole"), first.baseURL), name: "whole", in: directory)
        let wholeStatus = await whole.exitStatus(within: 300)
        try #require(wholeStatus == 0, "\(whole.stderr)")
        let merge = try Self.run(["merge", path("shard-1"), path("shard-2"), "--out", path("merged")], name: "merge", in: directory)
        let mergeStatus = await merge.exitStatus(within: 120)
        try #require(mergeStatus == 0, "\(merge.stderr)")

        // Each shard ran part of the items and together they ran all, once.
        let parts = try [path("shard-1"), path("shard-2")].map { try GenerationOutput.read($0).records.map(\.itemID) }
        #expect(parts.allSatisfy { !$0.isEmpty } && Set(parts[0]).isDisjoint(with: parts[1]))
        let merged = try GenerationOutput.read(path("merged")), single = try GenerationOutput.read(path("whole"))
        #expect(merged.records.map(\.itemID).sorted() == Self.chat.map(\.0).sorted())
        #expect(merged.records.map(\.key) == single.records.map(\.key))
        #expect(Set(single.records.filter { $0.outcome == .model }.map(\.route)) == [.direct, .pivot], "model replies on both routes are compared")
        let logged = try JSONLinesLog<GenerationRecord>.read(URL(fileURLWithPath: path("merged")).appendingPathComponent(GenerationOutput.recordsLog))
        #expect(logged.count == single.allRecords.count && Set(logged.map(\.key)).count == logged.count, "nothing lost or recorded twice")

        // Replies, fallbacks, served in own language, tokens and detected languages: the same, record by record.
        #expect(merged.records.map(Self.untimed) == single.records.map(Self.untimed))
        #expect(try Self.replies(path("merged")) == Self.replies(path("whole")))
        #expect(merged.fallbacks == single.fallbacks)
        #expect(merged.served == single.served)
        // Every detection config's records, and so the served funnel, merge like the reference's.
        #expect(merged.configRecords.map(Self.untimed) == single.configRecords.map(Self.untimed) && !single.configRecords.isEmpty)
        #expect(merged.funnel == single.funnel)
        #expect(merged.summary.map(Self.counts) == single.summary.map(Self.counts))
        #expect(merged.provenance.blocks == ["1/2", "2/2"])

        // Detection: the same results and figures.
        let mergedRun = try RunResults.load(path("merged")), singleRun = try RunResults.load(path("whole"))
        let mergedResults = try mergedRun.detectionResults, singleResults = try singleRun.detectionResults
        #expect(!singleResults.isEmpty && mergedResults == singleResults)
        #expect(mergedRun.detection?.slices == singleRun.detection?.slices)
        #expect(mergedRun.detection?.comparisons == singleRun.detection?.comparisons)
    }
}
