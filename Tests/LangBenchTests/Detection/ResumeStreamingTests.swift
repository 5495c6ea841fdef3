@testable import BenchSupport
@testable import Detection
import Foundation
@testable import Items
@testable import LangBench
import TestSupport
import Testing

/// `--resume` checks a log in canonical order in one streamed pass and reads its kept results back as the
/// run goes; a log out of that order is read whole. Both ways keep the same results, and a cut run
/// resumed either way ends as the uninterrupted one.
struct ResumeStreamingTests {
    static let paths = ["Corpora/short-phrases.tsv", "Corpora/cyrillic-confusables.tsv"].map { PipelineFixture.repository.appendingPathComponent($0).path }

    /// The log's header line and result lines.
    static func lines(_ log: URL) throws -> (header: Substring, results: [Substring]) {
        let lines = try String(contentsOf: log, encoding: .utf8).split(separator: "\n")
        return (lines[0], Array(lines.dropFirst()))
    }

    static func write(_ log: URL, header: Substring, results: some Sequence<Substring>, torn: String = "") throws {
        try ([header] + results).map { $0 + "\n" }.joined().appending(torn).write(to: log, atomically: true, encoding: .utf8)
    }

    @Test func streamedAndInMemoryChecksKeepTheSameResults() async throws {
        let items = try CorpusLoader().loadSorted(Self.paths, itemsInMemory: 97)  // spooled: read again per config
        let whole = try await DetectionStreamingTests.detect(items, into: try Fixture.temporaryDirectory(), jobs: 1, batchSize: 256)
        let (header, results) = try Self.lines(whole.appendingPathComponent(DetectionOutput.resultsLog))
        let cut = results.prefix(results.count * 3 / 5)  // the first config whole, the second in part
        var random = SplitMix64(seed: 7)
        var shuffled = Array(cut)
        shuffled.shuffle(using: &random)
        var resumes: [DetectionResume] = []
        for order in [Array(cut), shuffled] {
            let log = try Fixture.temporaryDirectory().appendingPathComponent(DetectionOutput.resultsLog)
            try Self.write(log, header: header, results: order, torn: "[\"torn")
            let logHeader = try #require(try DetectionResultLog.header(of: log))
            let (resume, _) = try DetectionResume.resuming(log, header: logHeader, items: items, directory: log.deletingLastPathComponent())
            #expect(try String(contentsOf: log, encoding: .utf8).hasSuffix("]\n"), "the torn line is truncated away")
            resumes.append(resume)
        }
        #expect(resumes[0].isStreamed && !resumes[1].isStreamed)
        #expect(resumes.map(\.count) == [cut.count, cut.count])
        let kept = resumes.map { $0.kept() }
        for config in 0..<DetectionConfig.defaults().count {
            for position in 0..<items.count {
                let done = resumes.map { $0.isDone(config: config, position: position) }
                #expect(done[0] == done[1], "config \(config), item \(position)")
                if done[0] { #expect(try kept[0].result(config: config, position: position) == kept[1].result(config: config, position: position)) }
            }
        }
    }

    @Test func aCutRunResumedEitherWayEndsAsTheWholeRun() async throws {
        let items = try CorpusLoader().loadSorted(Self.paths, itemsInMemory: 97)
        let whole = try await DetectionStreamingTests.detect(items, into: try Fixture.temporaryDirectory(), jobs: 1, batchSize: 256)
        let (header, results) = try Self.lines(whole.appendingPathComponent(DetectionOutput.resultsLog))
        let cut = results.prefix(results.count / 2)
        let canonical = try Fixture.temporaryDirectory()
        try Self.write(canonical.appendingPathComponent(DetectionOutput.resultsLog), header: header, results: cut)
        _ = try await DetectionStreamingTests.detect(items, into: canonical, jobs: 2, batchSize: 100, resume: true)
        try DetectionStreamingTests.expectSameReports(whole, canonical)

        let reversed = try Fixture.temporaryDirectory()
        try Self.write(reversed.appendingPathComponent(DetectionOutput.resultsLog), header: header, results: cut.reversed())
        _ = try await DetectionStreamingTests.detect(items, into: reversed, jobs: 2, batchSize: 100, resume: true)
        try FileManager.default.removeItem(at: reversed.appendingPathComponent(DetectionOutput.resultsLog))
        try FileManager.default.removeItem(at: whole.appendingPathComponent(DetectionOutput.resultsLog))
        try DetectionStreamingTests.expectSameReports(whole, reversed)
    }
}
