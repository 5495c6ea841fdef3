@testable import Support
@testable import Detection
import Foundation
@testable import Generation
import GenerationTestSupport
@testable import Corpus
@testable import Suite
import TestSupport
import ByteIO
import Testing

/// The streaming writers produce exactly what the table writers, `JSONEncoder` and JSON parsers agree
/// on, and parallel detection changes no byte of a report.
struct DetectionStreamingTests {
    static let awkward = ["", "plain", "a,b", "say \"hi\"", "line\nbreak", "cr\rhere", "crlf\r\nhere", "=1+2", "+7", "-x", "@me", "\ttab",
                          "\r\nfirst", ",\u{301}combining", "=\u{301}", "emoji 👩‍👩‍👧", "Привет", "back\\slash", "\u{1}ctrl", "'quoted'"]

    /// What an encoder appends to an empty buffer, as text.
    static func encoded(_ body: (inout [UInt8]) -> Void) -> String {
        var bytes: [UInt8] = []
        body(&bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test(arguments: awkward)
    func textCellsEqualTheTableWriter(_ text: String) throws {
        #expect(Self.encoded { DetectionItemsCSV.text(text, into: &$0) } == CSVWriter.escape(CSVWriter.neutralise(text)))
    }

    /// Every 4-decimal value in 0…1 (what detectors report), and values the fast path must hand on.
    static let confidences = (0...10_000).map { (Double($0) * 0.0001 * 10_000).rounded() / 10_000 }
        + [0.12345, 0.99995, 0.00005, -0.0, -0.5, 1.5, 12345.6789, 999_999.9999, .nan, .infinity, 1e-300, 2_000_000]

    @Test func confidenceCellsEqualTheFormatter() throws {
        let wrong = Self.confidences.filter { value in Self.encoded { DetectionItemsCSV.fourDecimals(value, into: &$0) } != ReportCell.number(value, digits: 4).display }
        #expect(wrong.isEmpty)
    }

    /// The log writes a confidence as `Double.description` does (what `JSONOutput` writes).
    @Test func confidenceNumbersEqualTheirDescription() throws {
        let wrong = Self.confidences.filter { value in Self.encoded { DetectionResultLine.number(value, into: &$0) } != value.description }
        #expect(wrong.isEmpty)
    }

    static let awkwardResults = awkward.enumerated().map { i, text in
        DetectionResult(itemID: text.isEmpty ? "id" : text, lang: LanguageCode(normalised: "ru"), tags: [text, "t"], length: .twoToThree,
                        config: "c\(text)", detector: "exec:\(text)", predicted: i % 3 == 0 ? nil : LanguageCode(normalised: "uk"),
                        confidence: i % 2 == 0 ? nil : Double(i) / 7, error: i % 3 == 0 ? "boom \(text)" : nil, itemHash: "00ff")
    }

    /// Each row is a JSON array (as any JSON parser reads it) of the result's fields in column order, and
    /// reads back as the result.
    @Test func resultRowsRoundTripThroughJSONSerializationAndTheReader() throws {
        let results = Self.awkwardResults
        let text = Self.encoded { bytes in for result in results { DetectionResultLine.encode(result, into: &bytes) } }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == results.count, "one line per result: newlines inside values are escaped")
        for (line, result) in zip(lines, results) {
            let row = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [Any])
            #expect(row.count == (result.error == nil ? 9 : 10))
            #expect(row[0] as? String == result.config && row[1] as? String == result.detector && row[2] as? String == result.itemID)
            #expect(row[6] as? [String] == result.tags && row[7] as? String == result.predicted?.identifier)
            #expect(row[8] as? Double == result.confidence && row.dropFirst(9).first as? String == result.error)
        }
        var reader = DetectionRowReader()
        #expect(try lines.map { line in try Array(line.utf8).withBytes { try reader.result($0) } } == results)
    }

    /// A chunk's results share one config and detector, whose cells are encoded once: the same bytes,
    /// whatever the names need (quoting, escaping, formula neutralising).
    @Test func sharedConfigCellsAreTheSameBytes() {
        for text in Self.awkward {
            Self.expectEncodedAlike(Self.awkwardResults.map { result in
                var result = result
                result.config = text
                result.detector = "exec:\(text)"
                return result
            })
        }
    }

    /// Detections handed over unbuilt become results whose fingerprints are written from their numbers and
    /// whose config cells are encoded once: the same rows and log lines as results made with the fingerprint as
    /// text, for awkward ids, tags, texts and config names.
    @Test(arguments: ["builtin", "c,\"x\"", "=cfg"])
    func detectionsEncodeAsTheirResults(_ config: String) {
        let items = Self.awkward.enumerated().map { i, text in
            CorpusItem(id: text.isEmpty ? "id" : text, lang: LanguageCode(normalised: i % 2 == 0 ? "ru" : "zh"), text: text, tags: i % 4 == 0 ? [] : [text, "t"])
        }
        let bests = items.indices.map { i in i % 3 == 0 ? nil : Hypothesis(lang: LanguageCode(normalised: "uk"), probability: Double(i) / 7) }
        let detections = FreshDetections(items: items[1...], bests: Array(bests[1...]), config: config, detector: "builtin")
        let results = zip(items[1...], bests[1...]).map { item, best in
            DetectionRunner.result(for: item, config: config, detector: "builtin", outcome: best.map { .hypotheses([$0]) } ?? .undetermined)
        }
        #expect(results.allSatisfy { $0.itemHash?.utf8.count == 16 })
        let cells = Self.cells(config: detections.config, detector: detections.detector)
        for (entry, result) in results.enumerated() {
            let (built, fingerprint) = detections.result(entry)
            #expect(Self.encoded { DetectionItemsCSV.row(built, correct: true, flip: "fixed", into: &$0) }
                    == Self.encoded { DetectionItemsCSV.row(result, correct: true, flip: "fixed", into: &$0) })
            #expect(Self.encoded { DetectionResultLine.encode(built, fingerprint: fingerprint, into: &$0, fixed: cells) }
                    == Self.encoded { DetectionResultLine.encode(result, into: &$0) })
        }
    }

    /// A log line written with a chunk's config cells encoded once is the line written cell by cell.
    static func expectEncodedAlike(_ results: [DetectionResult]) {
        for result in results {
            let cells = Self.cells(config: result.config, detector: result.detector)
            #expect(Self.encoded { DetectionResultLine.encode(result, fingerprint: nil, into: &$0, fixed: cells) }
                    == Self.encoded { DetectionResultLine.encode(result, into: &$0) })
        }
    }

    static func cells(config: String, detector: String) -> FixedCells {
        FixedCells(config: config, detector: detector, encode: DetectionResultLine.configAndDetector)
    }

    /// `--jobs 1` and `--jobs 3`, with batches that split the corpus unevenly: every file byte-identical
    /// except the fields that record when and how fast.
    @Test func jobsDoNotChangeAByte() async throws {
        let root = PipelineFixture.repository
        let corpus = try CorpusLoader().load(["Corpora/short-phrases.tsv", "Corpora/cyrillic-confusables.tsv"].map { root.appendingPathComponent($0).path })
        var outputs: [URL] = []
        for jobs in [1, 3] {
            outputs.append(try await Self.detect(SortedCorpus(corpus), into: try Fixture.temporaryDirectory(), jobs: jobs, batchSize: 331))
        }
        try Self.expectSameReports(outputs[0], outputs[1])
    }

    /// The corpus sorted through spool files (runs of 97 items, merged) instead of in memory: every
    /// file byte-identical, resume included.
    @Test(.needs(.simulation)) func spooledCorpusDoesNotChangeAByte() async throws {
        let root = PipelineFixture.repository
        let paths = ["Corpora/short-phrases.tsv", "Corpora/cyrillic-confusables.tsv"].map { root.appendingPathComponent($0).path }
        let spooled = try CorpusLoader().loadSorted(paths, itemsInMemory: 97)
        #expect(spooled.isSpooled)
        var outputs: [URL] = []
        for items in [SortedCorpus(try CorpusLoader().load(paths)), spooled] {
            outputs.append(try await Self.detect(items, into: try Fixture.temporaryDirectory(), jobs: 2, batchSize: 256))
        }
        try Self.expectSameReports(outputs[0], outputs[1])
        // Resuming the spooled run from its complete log keeps every result and changes nothing.
        _ = try await Self.detect(spooled, into: outputs[1], jobs: 2, batchSize: 256, resume: true)
        try Self.expectSameReports(outputs[0], outputs[1])
    }

    /// Runs the default configs over `items` into `directory` (returned) with `jobs` tasks and batches of
    /// `batchSize` items.
    static func detect(_ items: SortedCorpus, into directory: URL, jobs: Int, batchSize: Int, resume: Bool = false) async throws -> URL {
        var job = DetectionJob(items: items, configs: DetectionConfig.defaults(), supported: try PipelineFixture.profile().supportedLanguages,
                               factory: DetectorFactory(), directory: directory, command: ["test"], resume: resume, jobs: jobs)
        job.batchSize = batchSize
        _ = try await job.run()
        return directory
    }

    static func expectSameReports(_ a: URL, _ b: URL, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: a.path).sorted()
        #expect(try FileManager.default.contentsOfDirectory(atPath: b.path).sorted() == files, sourceLocation: sourceLocation)
        for file in files {
            let x = try String(contentsOf: a.appendingPathComponent(file), encoding: .utf8)
            let y = try String(contentsOf: b.appendingPathComponent(file), encoding: .utf8)
            switch file {
            case DetectionOutput.jsonFile: #expect(try DetectionJobTests.stable(x) == DetectionJobTests.stable(y), "\(file)", sourceLocation: sourceLocation)
            case DetectionOutput.markdownFile: #expect(DetectionJobTests.stableMarkdown(x) == DetectionJobTests.stableMarkdown(y), "\(file)", sourceLocation: sourceLocation)
            case RunPage.file:  // titled by the run directory's name
                #expect(DetectionJobTests.stableHTML(x.replacingOccurrences(of: a.lastPathComponent, with: "RUN"))
                        == DetectionJobTests.stableHTML(y.replacingOccurrences(of: b.lastPathComponent, with: "RUN")), "\(file)", sourceLocation: sourceLocation)
            default: #expect(x == y, "\(file) is byte-identical", sourceLocation: sourceLocation)
            }
        }
    }

    /// `detect` over the corpus read again writes what it writes over the corpus in memory.
    @Test func detectionOverAReplayedCorpusDoesNotChangeAByte() async throws {
        let directory = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let paths = try ReplayCorpus.write(in: directory)
        var loader = CorpusLoader()
        loader.blockSize = 97  // blocks that cut lines
        let replayed = try loader.loadSorted(paths, itemsInMemory: 100)
        try #require(replayed.isReplayed)
        var outputs: [URL] = []
        for items in [SortedCorpus(try CorpusLoader().load(paths)), replayed] {
            let output = directory.appendingPathComponent("run-\(outputs.count)")
            outputs.append(try await Self.detect(items, into: output, jobs: 2, batchSize: 256))
        }
        try Self.expectSameReports(outputs[0], outputs[1])
    }
}
