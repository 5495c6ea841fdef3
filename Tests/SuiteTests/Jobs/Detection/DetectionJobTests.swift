@testable import Support
@testable import Detection
import Foundation
@testable import Generation
@testable import Corpus
@testable import Suite
import TestSupport
import Testing

struct DetectionJobTests {
    static func job(_ directory: URL, resume: Bool = false) throws -> DetectionJob {
        let corpus = try CorpusLoader().load([Fixture.path("corpus/tiny.tsv", target: "CorpusTests")])
        let configs = DetectionConfig.defaults(detector: RunFixtures.detector)
        let factory = DetectorFactory()
        return DetectionJob(corpus: corpus, configs: configs, supported: [LanguageCode(normalised: "en")], factory: factory,
                            directory: directory, command: ["test"], resume: resume)
    }

    /// Timestamps and timings are the only fields allowed to differ between identical runs.
    static func stable(_ json: String) throws -> Data {
        var object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        object["timings"] = nil
        var provenance = try #require(object["provenance"] as? [String: Any])
        provenance["started_at"] = nil
        provenance["finished_at"] = nil
        provenance["startedAt"] = nil
        provenance["finishedAt"] = nil
        object["provenance"] = provenance
        return try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    }

    /// Markdown without what may differ between identical runs: the throughput table and the provenance footer.
    static func stableMarkdown(_ text: String) -> String {
        var out: [Substring] = [], inThroughput = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("### ") { inThroughput = line.hasPrefix("### Throughput") }
            if inThroughput && line.hasPrefix("| ") && !line.hasPrefix("| config") && !line.hasPrefix("| ---") { continue }
            if line.hasPrefix("langbench ") && line.contains(" · started ") { continue }
            out.append(line)
        }
        return out.joined(separator: "\n")
    }

    /// report.html without the timing table and the start and finish times.
    static func stableHTML(_ text: String) -> String {
        text.replacingOccurrences(of: #"<table id="detection-timing"[\s\S]*?</table>"#, with: "", options: .regularExpression)
            .split(separator: "\n").filter { !$0.hasPrefix("<li>Started ") }.joined(separator: "\n")
    }

    /// Every file of two runs on the same inputs: byte-identical, except the fields that record when
    /// and how fast (timings, timestamps).
    @Test func sameInputsGiveByteIdenticalReports() async throws {
        let a = try Fixture.temporaryDirectory(), b = try Fixture.temporaryDirectory()
        // The job returns its report and leaves the page to its caller, which writes it once per run.
        try RunPage.write(detection: try await Self.job(a).run(), generation: nil, to: a)
        try RunPage.write(detection: try await Self.job(b).run(), generation: nil, to: b)
        let files = try FileManager.default.contentsOfDirectory(atPath: a.path).sorted()
        #expect(files == [DetectionReport.candidateSetChartFile, DetectionReport.confusionChartFile, DetectionOutput.itemsFile, DetectionReport.lengthChartFile, DetectionOutput.resultsLog,
                          DetectionOutput.summaryFile, DetectionOutput.jsonFile, DetectionOutput.markdownFile, RunPage.file].sorted())
        #expect(try FileManager.default.contentsOfDirectory(atPath: b.path).sorted() == files)
        for file in files {
            let textA = try String(contentsOf: a.appendingPathComponent(file), encoding: .utf8)
            let textB = try String(contentsOf: b.appendingPathComponent(file), encoding: .utf8)
            switch file {
            case DetectionOutput.jsonFile: #expect(try Self.stable(textA) == Self.stable(textB), "\(file)")
            case DetectionOutput.markdownFile: #expect(Self.stableMarkdown(textA) == Self.stableMarkdown(textB), "\(file)")
            case RunPage.file:  // titled by the run directory's name
                #expect(Self.stableHTML(textA.replacingOccurrences(of: a.lastPathComponent, with: "RUN"))
                        == Self.stableHTML(textB.replacingOccurrences(of: b.lastPathComponent, with: "RUN")), "\(file)")
            default: #expect(textA == textB, "\(file) is byte-identical")
            }
        }
    }

    @Test func detectorErrorsAreCountedAndTheRunGoesOn() async throws {
        let directory = try Fixture.temporaryDirectory()
        let report = try await Self.job(directory).run()
        let errors = try DetectionStore.readRun(directory.path).results.filter { $0.error != nil }
        #expect(errors.count == 3)  // t4 "@error" in each of the three configs
        #expect(report.metrics(config: "unconstrained")?.n == 5)
    }

    @Test func resumeKeepsRecordedResultsAndRedoesNothing() async throws {
        let directory = try Fixture.temporaryDirectory()
        _ = try await Self.job(directory).run()
        let full = try DetectionStore.readRun(directory.path).results
        let csv = try String(contentsOf: directory.appendingPathComponent(DetectionOutput.itemsFile), encoding: .utf8)
        // Simulate a crash after the header and 7 results, with a torn 8th line.
        let log = directory.appendingPathComponent(DetectionOutput.resultsLog)
        let lines = try String(contentsOf: log, encoding: .utf8).split(separator: "\n").prefix(1 + 7)
        try (lines.joined(separator: "\n") + "\n{\"item_id\":\"t3\",\"la").write(to: log, atomically: true, encoding: .utf8)
        let resumed = try await Self.job(directory, resume: true).run()
        #expect(try DetectionStore.readRun(directory.path).results == full)
        #expect(try String(contentsOf: directory.appendingPathComponent(DetectionOutput.itemsFile), encoding: .utf8) == csv)
        #expect(resumed.timings.map(\.items).reduce(0, +) == 15 - 7)
        let relogged = try DetectionResultLog.read(log)
        #expect(relogged.results.count == 15 && relogged.header != nil)
    }

    /// A corpus given by its files is read when the run starts (while the detectors are made): the
    /// report is the one of the same corpus read beforehand.
    @Test func aCorpusReadAtTheStartGivesTheSameReport() async throws {
        let before = try Fixture.temporaryDirectory(), atStart = try Fixture.temporaryDirectory()
        _ = try await Self.job(before).run()
        var reading = try Self.job(atStart)
        reading.items = .reading([Fixture.path("corpus/tiny.tsv", target: "CorpusTests")], CorpusLoader())
        _ = try await reading.run()
        for file in [DetectionOutput.itemsFile, DetectionOutput.resultsLog, DetectionOutput.summaryFile] {
            #expect(try Data(contentsOf: before.appendingPathComponent(file)) == Data(contentsOf: atStart.appendingPathComponent(file)), "\(file)")
        }
        #expect(try Self.stable(String(contentsOf: before.appendingPathComponent(DetectionOutput.jsonFile), encoding: .utf8))
            == Self.stable(String(contentsOf: atStart.appendingPathComponent(DetectionOutput.jsonFile), encoding: .utf8)))
    }

    /// With both the corpus and a detector wrong, the corpus error is the one reported (as when the
    /// corpus was read first), and a detector that cannot be made leaves an earlier results log alone.
    @Test func aCorpusErrorComesFirstAndAFailedDetectorKeepsTheOldLog() async throws {
        let directory = try Fixture.temporaryDirectory()
        let broken = [DetectionConfig(name: "custom", detector: "exec:", candidates: .none)]
        var job = DetectionJob(items: .reading([directory.appendingPathComponent("missing.tsv").path], CorpusLoader()), configs: broken,
                               supported: [], factory: DetectorFactory(), directory: directory, command: ["test"])
        await #expect(throws: CorpusError.self) { _ = try await job.run() }

        let log = directory.appendingPathComponent(DetectionOutput.resultsLog)
        try Data("kept\n".utf8).write(to: log)
        job.items = .reading([Fixture.path("corpus/tiny.tsv", target: "CorpusTests")], CorpusLoader())
        await #expect(throws: ExecCommandError.self) { _ = try await job.run() }
        #expect(try Data(contentsOf: log) == Data("kept\n".utf8))
    }
}
