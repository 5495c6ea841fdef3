@testable import Support
@testable import Detection
import Foundation
import GenerationTestSupport
@testable import Corpus
@testable import Suite
import TestSupport
import Testing

/// `--resume` checks a log in canonical order in one streamed pass and reads its kept results back as the
/// run goes; a log of several canonical segments (its index says where each starts) is read as those
/// segments merged. Both ways keep the same results, and a cut run resumed either way ends as the
/// uninterrupted one; a log out of order without an index is refused.
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

    /// `results` cut in `parts` canonical pieces, last piece first: the pieces of a log of `parts` segments.
    static func segmented(_ results: ArraySlice<Substring>, parts: Int) -> [[Substring]] {
        let size = (results.count + parts - 1) / parts
        return stride(from: results.startIndex, to: results.endIndex, by: size).reversed()
            .map { Array(results[$0..<min($0 + size, results.endIndex)]) }
    }

    /// Writes `pieces` one after the other with the index of their segments, as a resume that appended
    /// each piece would have.
    static func write(_ log: URL, header: Substring, pieces: [[Substring]]) throws {
        try write(log, header: header, results: pieces.joined())
        var segments: [DetectionStore.Segment] = [], offset = header.utf8.count + 1, line = 2
        for piece in pieces {
            segments.append(DetectionStore.Segment(offset: offset, line: line))
            offset += piece.map { $0.utf8.count + 1 }.reduce(0, +)
            line += piece.count
        }
        try DetectionStore.SegmentIndex.write(segments, of: log)
    }

    @Test func streamedAndSegmentedChecksKeepTheSameResults() async throws {
        let items = try CorpusLoader().loadSorted(Self.paths, itemsInMemory: 97)  // spooled: read again per config
        let whole = try await DetectionStreamingTests.detect(items, into: try Fixture.temporaryDirectory(), jobs: 1, batchSize: 256)
        let (header, results) = try Self.lines(whole.appendingPathComponent(DetectionOutput.resultsLog))
        let cut = results.prefix(results.count * 3 / 5)  // the first config whole, the second in part
        // Four segments, and a duplicate of an early result in the last (the first of duplicates is kept).
        let segmented = Self.segmented(cut, parts: 4) + [[cut[cut.startIndex + 1]]]
        var resumes: [DetectionResume] = []
        for pieces in [[Array(cut)], segmented] {
            let log = try Fixture.temporaryDirectory().appendingPathComponent(DetectionOutput.resultsLog)
            try Self.write(log, header: header, pieces: pieces)
            let handle = try FileHandle(forWritingTo: log)
            try handle.seekToEnd()
            try handle.write(contentsOf: Data("[\"torn".utf8))
            try handle.close()
            let logHeader = try #require(try DetectionResultLog.header(of: log))
            let (resume, _, _) = try DetectionResume.resuming(log, header: logHeader, items: items, directory: log.deletingLastPathComponent())
            #expect(try String(contentsOf: log, encoding: .utf8).hasSuffix("]\n"), "the torn line is truncated away")
            resumes.append(resume)
        }
        #expect(resumes.map(\.count) == [cut.count, cut.count])
        let kept = try resumes.map { try $0.kept() }
        for config in 0..<DetectionConfig.defaults().count {
            for position in 0..<items.count {
                let done = resumes.map { $0.isDone(config: config, position: position) }
                #expect(done[0] == done[1], "config \(config), item \(position)")
                if done[0] { #expect(try kept[0].result(config: config, position: position) == kept[1].result(config: config, position: position)) }
            }
        }
    }

    /// A second, different result under one key — in one stream or in a later segment — is refused naming the
    /// config, the item and both lines (keeping the first was a silent choice); the same result twice counts once.
    @Test func aConflictingDuplicateIsRefusedNamingBothLines() async throws {
        let items = try CorpusLoader().loadSorted(Self.paths)
        let whole = try await DetectionStreamingTests.detect(items, into: try Fixture.temporaryDirectory(), jobs: 1, batchSize: 256)
        let log = whole.appendingPathComponent(DetectionOutput.resultsLog)
        let (header, results) = try Self.lines(log)
        let original = results[1]
        var fields = try JSONSerialization.jsonObject(with: Data(original.utf8)) as! [Any]
        fields[7] = (fields[7] as? String) == "ru" ? "uk" : "ru"  // another predicted language
        let changed = Substring(String(decoding: try JSONSerialization.data(withJSONObject: fields), as: UTF8.self))
        let config = fields[0] as! String, id = fields[2] as! String
        for (name, pieces) in [("one stream", [[results[0], original, changed] + results.dropFirst(2)]),
                               ("a later segment", [Array(results), [changed]])] {
            try Self.write(log, header: header, pieces: pieces)
            let error = try #require(throws: DamagedLog.self, "\(name)") { _ = try DetectionStore(whole.path).allResults() }
            let lines = name == "one stream" ? "3, 4" : "3, \(results.count + 2)"
            #expect("\(error)".contains("holds two different results of config '\(config)', item '\(id)' (lines \(lines))"), "\(name): \(error)")
        }
        try Self.write(log, header: header, pieces: [Array(results), [original]])
        #expect(try DetectionStore(whole.path).allResults().count == results.count, "an identical duplicate counts once")
    }

    /// A log out of order without an index of its segments (shuffled, or an edited one) is refused, naming
    /// it, by a resume and by every reader; so is an index that does not describe the log.
    @Test func aShuffledLogIsRefused() async throws {
        let items = try CorpusLoader().loadSorted(Self.paths)
        let whole = try await DetectionStreamingTests.detect(items, into: try Fixture.temporaryDirectory(), jobs: 1, batchSize: 256)
        let log = whole.appendingPathComponent(DetectionOutput.resultsLog)
        let (header, results) = try Self.lines(log)
        var random = SplitMix64(seed: 7)
        try Self.write(log, header: header, results: results.shuffled(using: &random))
        let logHeader = try #require(try DetectionResultLog.header(of: log))
        let error = try #require(throws: DamagedLog.self) {
            _ = try DetectionResume.resuming(log, header: logHeader, items: items, directory: whole)
        }
        #expect("\(error)".contains(log.path) && "\(error)".contains("out of canonical order") && "\(error)".contains(DetectionStore.SegmentIndex.fileName))
        #expect(throws: DamagedLog.self) { _ = try DetectionStore(whole.path).allResults() }
        try Self.write(log, header: header, pieces: [Array(results)])
        try DetectionStore.SegmentIndex.write([.init(offset: 1 << 40, line: 2)], of: log)
        let index = try #require(throws: DamagedLog.self) { _ = try DetectionStore(whole.path).allResults() }
        #expect(index.path.hasSuffix(DetectionStore.SegmentIndex.fileName))
    }

    @Test(.needs(.simulation)) func aCutRunResumedEitherWayEndsAsTheWholeRun() async throws {
        let items = try CorpusLoader().loadSorted(Self.paths, itemsInMemory: 97)
        let whole = try await DetectionStreamingTests.detect(items, into: try Fixture.temporaryDirectory(), jobs: 1, batchSize: 256)
        let (header, results) = try Self.lines(whole.appendingPathComponent(DetectionOutput.resultsLog))
        let cut = results.prefix(results.count / 2)
        let canonical = try Fixture.temporaryDirectory()
        try Self.write(canonical.appendingPathComponent(DetectionOutput.resultsLog), header: header, results: cut)
        _ = try await DetectionStreamingTests.detect(items, into: canonical, jobs: 2, batchSize: 100, resume: true)
        try DetectionStreamingTests.expectSameReports(whole, canonical)

        let segmented = try Fixture.temporaryDirectory()
        try Self.write(segmented.appendingPathComponent(DetectionOutput.resultsLog), header: header, pieces: Self.segmented(cut, parts: 5))
        _ = try await DetectionStreamingTests.detect(items, into: segmented, jobs: 2, batchSize: 100, resume: true)
        #expect(try DetectionStore(segmented.path).allResults() == DetectionStore(whole.path).allResults())
        try FileManager.default.removeItem(at: segmented.appendingPathComponent(DetectionOutput.resultsLog))
        try FileManager.default.removeItem(at: segmented.appendingPathComponent(DetectionStore.SegmentIndex.fileName))
        try FileManager.default.removeItem(at: whole.appendingPathComponent(DetectionOutput.resultsLog))
        try DetectionStreamingTests.expectSameReports(whole, segmented)
    }

    /// A corpus that gained items before those logged: the resume appends them after, writing the index of
    /// the log's two segments, which reads (and resumes again, adding none) as the whole run.
    @Test(.needs(.simulation)) func aCorpusThatGainedItemsResumesIntoTwoSegments() async throws {
        let rows = try Self.paths.flatMap { try String(contentsOfFile: $0, encoding: .utf8).split(separator: "\n").dropFirst() }
        let fewer = try Fixture.temporaryDirectory().appendingPathComponent("fewer.tsv")
        try (["id\tlang\ttext\ttags"] + rows.enumerated().filter { $0.offset % 3 != 0 }.map(\.element)).map { $0 + "\n" }.joined()
            .write(to: fewer, atomically: true, encoding: .utf8)
        let items = try CorpusLoader().loadSorted(Self.paths)
        let whole = try await DetectionStreamingTests.detect(items, into: try Fixture.temporaryDirectory(), jobs: 1, batchSize: 64)
        let grown = try await DetectionStreamingTests.detect(try CorpusLoader().loadSorted([fewer.path]), into: try Fixture.temporaryDirectory(), jobs: 1, batchSize: 64)
        _ = try await DetectionStreamingTests.detect(items, into: grown, jobs: 2, batchSize: 64, resume: true)
        let log = grown.appendingPathComponent(DetectionOutput.resultsLog)
        #expect(try DetectionStore.SegmentIndex.segments(of: log)?.count == 2)
        #expect(try DetectionStore(grown.path).allResults() == DetectionStore(whole.path).allResults())
        _ = try await DetectionStreamingTests.detect(items, into: grown, jobs: 1, batchSize: 64, resume: true)  // nothing left to do
        #expect(try DetectionStore.SegmentIndex.segments(of: log)?.count == 2)
        #expect(try DetectionStore(grown.path).allResults() == DetectionStore(whole.path).allResults())
        for directory in [grown, whole] { try FileManager.default.removeItem(at: directory.appendingPathComponent(DetectionOutput.resultsLog)) }
        try FileManager.default.removeItem(at: grown.appendingPathComponent(DetectionStore.SegmentIndex.fileName))
        try DetectionStreamingTests.expectSameReports(whole, grown)
    }
}
