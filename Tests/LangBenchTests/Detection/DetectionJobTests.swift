import Foundation
import Testing
import TestSupport
@testable import LangBench

struct DetectionJobTests {
    static func job(_ directory: URL, resume: Bool = false) throws -> DetectionJob {
        let corpus = try CorpusLoader().load([Fixture.path("corpus/tiny.tsv")])
        let configs = DetectionConfig.defaults(detector: "exec:\(ExternalDetectorTests.command)")
        let factory = DetectorFactory()
        return DetectionJob(corpus: corpus, configs: configs, supported: [LanguageCode(normalised: "en")], factory: factory,
                            directory: directory, command: ["test"], resume: resume)
    }

    /// Timestamps and timings are the only fields allowed to differ between identical runs.
    static func stable(_ json: String) throws -> Data {
        var object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as! [String: Any]
        object["timings"] = nil
        var provenance = object["provenance"] as! [String: Any]
        provenance["started_at"] = nil
        provenance["finished_at"] = nil
        provenance["startedAt"] = nil
        provenance["finishedAt"] = nil
        object["provenance"] = provenance
        return try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    }

    @Test func sameInputsGiveByteIdenticalReports() async throws {
        let a = try Fixture.temporaryDirectory(), b = try Fixture.temporaryDirectory()
        _ = try await Self.job(a).run()
        _ = try await Self.job(b).run()
        let itemsA = try String(contentsOf: a.appendingPathComponent(DetectionOutput.itemsFile), encoding: .utf8)
        let itemsB = try String(contentsOf: b.appendingPathComponent(DetectionOutput.itemsFile), encoding: .utf8)
        #expect(itemsA == itemsB)
        let jsonA = try String(contentsOf: a.appendingPathComponent(DetectionOutput.jsonFile), encoding: .utf8)
        let jsonB = try String(contentsOf: b.appendingPathComponent(DetectionOutput.jsonFile), encoding: .utf8)
        #expect(try Self.stable(jsonA) == Self.stable(jsonB))
        for file in [DetectionOutput.summaryFile, DetectionOutput.markdownFile, DetectionReport.lengthChartFile, DetectionReport.confusionChartFile] {
            #expect(FileManager.default.fileExists(atPath: a.appendingPathComponent(file).path), "\(file)")
        }
    }

    @Test func detectorErrorsAreCountedAndTheRunGoesOn() async throws {
        let report = try await Self.job(try Fixture.temporaryDirectory()).run()
        let errors = report.results.filter { $0.error != nil }
        #expect(errors.count == 3)  // t4 "@error" in each of the three configs
        #expect(report.metrics(config: "unconstrained")?.n == 5)
    }

    @Test func resumeKeepsRecordedResultsAndRedoesNothing() async throws {
        let directory = try Fixture.temporaryDirectory()
        let full = try await Self.job(directory).run()
        // Simulate a crash after 7 results, with a torn 8th line.
        let log = directory.appendingPathComponent(DetectionOutput.resultsLog)
        let lines = try String(contentsOf: log, encoding: .utf8).split(separator: "\n").prefix(7)
        try (lines.joined(separator: "\n") + "\n{\"item_id\":\"t3\",\"la").write(to: log, atomically: true, encoding: .utf8)
        let resumed = try await Self.job(directory, resume: true).run()
        #expect(resumed.results == full.results)
        #expect(resumed.timings.map(\.items).reduce(0, +) == 15 - 7)
        let relogged = try JSONLinesLog<DetectionResult>.read(log)
        #expect(relogged.count == 15)
    }
}
