@testable import Support
@testable import Detection
import Foundation
@testable import Generation
import GenerationTestSupport
@testable import Corpus
@testable import Suite
@testable import Comparison
import TestSupport
import Synchronization
import ByteIO
import Testing

/// The results log of format 3 (a header naming the columns, then one JSON array per result), and the
/// older formats it still reads: format 2 (a header, then JSON objects) and format 1 (objects only).
struct DetectionResultLogTests {
    static let uk = LanguageCode(normalised: "uk"), ru = LanguageCode(normalised: "ru")

    static func result(_ id: String = "b00000000", tags: [String] = ["synthetic"], predicted: LanguageCode? = uk, confidence: Double? = 1,
                       error: String? = nil, itemHash: String? = "3bc4fbf02f1794e1") -> DetectionResult {
        DetectionResult(itemID: id, lang: uk, tags: tags, length: .one, config: "custom", detector: "builtin", predicted: predicted,
                        confidence: confidence, error: error, itemHash: itemHash)
    }

    static let header = DetectionLogHeader(configs: [DetectionReport.ConfigEcho(name: "custom", detector: "builtin", candidates: "uk,ru",
                                                                                 resolvedCandidates: nil, hints: "none")],
                                           settings: .init(recognizerModelHash: "1111aaaa2222bbbb"))

    /// A log of `results` written as a run writes it.
    static func write(_ results: [DetectionResult], to url: URL, header: DetectionLogHeader = header) throws {
        let log = try DetectionResultLog(creating: url, header: header)
        for result in results { try log.append(bound: result.encodedBound) { DetectionResultLine.encode(result, into: &$0) } }
        try log.finish()
    }

    /// The log at `url` rewritten as LangBench wrote it before format 3: format 2 (the header without
    /// columns, then one JSON object per result) or format 1 (objects without fingerprints, no header).
    static func downgrade(_ url: URL, to format: Int) throws {
        let (header, results) = try DetectionResultLog.read(url)
        var text = ""
        if format == 2, var old = header {
            old.detectionLog = 2
            old.columns = nil
            text += try JSONOutput.line(old)
        }
        for var result in results {
            if format == 1 { result.itemHash = nil }
            text += try JSONOutput.line(result)
        }
        try text.write(to: url, atomically: true, encoding: .utf8)
    }

    static func append(_ bytes: Data, to url: URL) throws {
        let handle = try FileHandle(forWritingTo: url)
        try handle.seekToEnd()
        try handle.write(contentsOf: bytes)
        try handle.close()
    }

    static func lines(_ url: URL) throws -> [Substring] {
        try String(contentsOf: url, encoding: .utf8).split(separator: "\n")
    }

    @Test func aRowHoldsTheColumnsInOrder() {
        var row: [UInt8] = []
        DetectionResultLine.encode(Self.result(), into: &row)
        #expect(String(decoding: row, as: UTF8.self) == #"["custom","builtin","b00000000","3bc4fbf02f1794e1","uk","1",["synthetic"],"uk",1.0]"# + "\n")
        row = []
        DetectionResultLine.encode(Self.result(predicted: nil, confidence: nil, error: "timed out", itemHash: nil), into: &row)
        #expect(String(decoding: row, as: UTF8.self) == #"["custom","builtin","b00000000",null,"uk","1",["synthetic"],null,null,"timed out"]"# + "\n")
    }

    @Test func theHeaderNamesTheColumnsFirst() throws {
        let url = try Fixture.temporaryDirectory().appendingPathComponent(DetectionOutput.resultsLog)
        try Self.write([], to: url)
        let line = try #require(try Self.lines(url).first)
        #expect(line.hasPrefix(#"{"columns":["config","detector","item_id","item_hash","lang","length","tags","predicted","confidence","error"],"configs":"#))
        #expect(line.contains(#""detection_log":3,"settings""#))
    }

    static let roundTrips: [DetectionResult] = [
        result(),
        result("no-answer", predicted: nil, confidence: nil, itemHash: nil),
        result("failed", predicted: nil, confidence: nil, error: "exit status 3: \"bad\" input\nsecond line"),
        result("escapes", tags: [#"quote " and \ backslash"#, "tab\tand\u{01}control", "/slash"]),
        result("нелатиница-🙂", tags: ["тег", "標籤"]),
        result("no-tags", tags: []),
        result("description", confidence: 0.1 + 0.2),  // 0.30000000000000004
        result("small", confidence: 1e-05),
        result("long", confidence: 0.123456789012345678),
        result("four-decimals", confidence: 0.9383),
        result("zero", predicted: ru, confidence: 0),
    ]

    @Test func rowsReadBackAsTheSameResults() throws {
        let url = try Fixture.temporaryDirectory().appendingPathComponent(DetectionOutput.resultsLog)
        try Self.write(Self.roundTrips, to: url)
        let read = try DetectionResultLog.read(url)
        #expect(read.header == Self.header)
        #expect(read.results == Self.roundTrips)
        #expect(read.results.map { $0.confidence?.bitPattern } == Self.roundTrips.map { $0.confidence?.bitPattern })
    }

    /// Every 4-decimal confidence and the awkward ones (the reader's fast path and its fallback) read back
    /// as the same Double.
    @Test func everyConfidenceReadsBackAsTheSameDouble() throws {
        let values = DetectionStreamingTests.confidences.filter(\.isFinite) + [0.1 + 0.2, 1e-05, 123_456_789.123_456_7, .leastNonzeroMagnitude, .greatestFiniteMagnitude]
        var reader = DetectionRowReader()
        let wrong = try values.filter { value in
            var row: [UInt8] = []
            DetectionResultLine.encode(Self.result(confidence: value), into: &row)
            return try row.dropLast().withBytes { try reader.result($0) }.confidence?.bitPattern != value.bitPattern
        }
        #expect(wrong.isEmpty)
    }

    @Test func rowsWithSpacesAndEveryJSONEscapeRead() throws {
        let url = try Fixture.temporaryDirectory().appendingPathComponent(DetectionOutput.resultsLog)
        try Self.write([], to: url)
        let row = #"[ "custom" , "builtin","\u0062\/\ud83d\ude42\b\f\r","h","uk","1",[ ],"uk", 5E-1 ]"#
        try Self.append(Data((row + "\n").utf8), to: url)
        let read = try DetectionResultLog.read(url).results
        #expect(read == [Self.result("b/🙂\u{08}\u{0C}\r", tags: [], confidence: 0.5, itemHash: "h")])
    }

    @Test(arguments: [
        (#"["custom","builtin","i",null,"uk","1",[],null]"#, "8 elements, expected 9 or 10"),
        (#"[]"#, "0 elements, expected 9 or 10"),
        (#"["custom","builtin","i",null,"uk","1",[],null,null,"e","x"]"#, "more than 10 elements"),
        (#"["custom","builtin","i",null,"uk","1",[],null,"0.5"]"#, "confidence is not a number or null"),
        (#"["custom","builtin",7,null,"uk","1",[],null,null]"#, "item_id is not a string"),
        (#"["custom","builtin","i",1,"uk","1",[],null,null]"#, "item_hash is not a string or null"),
        (#"["custom","builtin","i",null,"uk","7",[],null,null]"#, "length '7' is not one of 1, 2-3, 4-8, 9+"),
        (#"["custom","builtin","i",null,"uk","1",["a",1],null,null]"#, "tags is not an array of strings"),
        (#"["custom","builtin","i",null,"uk","1",[],null,null,null]"#, "error is not a string"),
        (#"["custom","builtin","i",null,"uk","1",[],null,1.]"#, "confidence is not a number or null"),
        (#"["custom","builtin","i\x",null,"uk","1",[],null,null]"#, "item_id is not a valid JSON string"),
        (#"["custom","builtin","i",null,"uk","1",[],null,null] x"#, "text after the row's closing bracket"),
        (#"{"config":"custom","detector":"builtin","item_id":"i","lang":"uk","length":"1","tags":[]}"#, "not a row of format 3"),
    ])
    func aMalformedRowNamesItsLine(row: String, reason: String) throws {
        let url = try Fixture.temporaryDirectory().appendingPathComponent(DetectionOutput.resultsLog)
        try Self.write([Self.result()], to: url)
        try Self.append(Data((row + "\n").utf8), to: url)
        #expect(throws: DamagedLog(path: url.path, line: 3, reason: "not a valid record (\(reason))")) {
            try DetectionResultLog.read(url)
        }
    }

    /// Logs of formats 1 and 2 are refused by every reader, naming the format and how to record the run again.
    @Test(arguments: [2, 1])
    func olderLogsAreRefusedNamingTheirFormat(format: Int) throws {
        let url = try Fixture.temporaryDirectory().appendingPathComponent(DetectionOutput.resultsLog)
        try Self.write(Self.roundTrips, to: url)
        try Self.downgrade(url, to: format)
        #expect(throws: Self.olderFormat(url, format)) { try DetectionResultLog.read(url) }
    }

    static func olderFormat(_ url: URL, _ format: Int) -> DamagedLog {
        DamagedLog(path: url.path, reason: "a results log of format \(format), written by an older LangBench; this LangBench reads format 3 only: "
            + "record the run again (`langbench detect` or `langbench run` with the same corpora and configs)")
    }

    @Test func theCommittedBaselineLogStillReads() throws {
        let url = PipelineFixture.repository.appendingPathComponent("Reports/baseline").appendingPathComponent(DetectionOutput.resultsLog)
        let read = try DetectionResultLog.read(url)
        #expect(read.results.count == (try Self.lines(url).count - (read.header == nil ? 0 : 1)))
        #expect(!read.results.isEmpty)
    }

    /// Resuming over a format-2 log is refused before anything is written: the log is left as it was.
    @Test func aResumedFormat2LogIsRefusedAndKept() async throws {
        let directory = try Fixture.temporaryDirectory()
        _ = try await DetectionResumeTests.job(directory).run()
        let log = directory.appendingPathComponent(DetectionOutput.resultsLog)
        try Self.downgrade(log, to: 2)
        let before = try Data(contentsOf: log)
        await #expect(throws: Self.olderFormat(log, 2)) { try await DetectionResumeTests.job(directory, resume: true).run() }
        #expect(try Data(contentsOf: log) == before)
    }

    @Test func aResumedFormat3LogIsAppendedTo() async throws {
        let directory = try Fixture.temporaryDirectory()
        _ = try await DetectionResumeTests.job(directory).run()
        let log = directory.appendingPathComponent(DetectionOutput.resultsLog)
        let whole = try Self.lines(log)
        try (whole.dropLast(5).joined(separator: "\n") + "\n").write(to: log, atomically: true, encoding: .utf8)
        _ = try await DetectionResumeTests.job(directory, resume: true).run()
        #expect(try Self.lines(log).prefix(whole.count - 5) == whole.prefix(whole.count - 5), "the kept lines are not rewritten")
        #expect(try DetectionResultLog.read(log).results.count == whole.count - 1)
    }

    @Test func mergingFormat2ShardsIsRefused() async throws {
        var logs: [URL] = []
        let directories = try await RunFixtures.shards(2) {
            let log = $0.appendingPathComponent(DetectionOutput.resultsLog)
            try Self.downgrade(log, to: 2)
            logs.append(log)
        }
        let output = try Fixture.temporaryDirectory()
        #expect(throws: Self.olderFormat(logs[0], 2)) { try RunMerger.merge(directories, into: output, command: ["merge"]) }
    }
}

/// Keeps the notes a job gives its progress observer.
final class NoteRecorder: ProgressObserving {
    private let lock = Mutex<[String]>([])
    var notes: [String] { lock.withLock { $0 } }
    func begin(_ phase: String, total: Int?) {}
    func advance(by count: Int) {}
    func end() {}
    func note(_ message: String) { lock.withLock { $0.append(message) } }
}
