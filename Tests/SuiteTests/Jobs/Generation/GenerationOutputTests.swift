@testable import Support
import Foundation
@testable import Generation
import GenerationTestSupport
@testable import Suite
import TestSupport
import Testing

/// generation.json leaves the records to the records log beside it, and reading a report takes them from
/// there; a missing or cut log, or a report of an older schema, is refused, naming it.
struct GenerationOutputTests {
    /// A finished run's directory as `generate` leaves it: the records log and the summary files.
    static func writeRun(_ report: GenerationReport, to directory: URL) throws {
        try GenerationStore.write(report.records, to: directory)
        try GenerationOutput.write(report, to: directory)
    }

    /// Rewrites the report in `directory` as schema 2 wrote it: its records inside, no records log beside it.
    static func rewriteAsSchema2(_ report: GenerationReport, in directory: URL) throws {
        var json = try Self.json(directory)
        json["schema_version"] = 2
        json["records"] = try JSONSerialization.jsonObject(with: try JSONEncoder().encode(report.records))
        try JSONSerialization.data(withJSONObject: json).write(to: directory.appendingPathComponent(GenerationOutput.jsonFile))
        if FileManager.default.fileExists(atPath: log(directory).path) { try FileManager.default.removeItem(at: log(directory)) }
    }

    static func json(_ directory: URL) throws -> [String: Any] {
        let data = try Data(contentsOf: directory.appendingPathComponent(GenerationOutput.jsonFile))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    static func log(_ directory: URL) -> URL { directory.appendingPathComponent(GenerationOutput.recordsLog) }

    @Test func aRunsReportLeavesItsRecordsToTheLogAndReadsThemBack() async throws {
        let directory = try Fixture.temporaryDirectory()
        let run = try await ResumeCheckTests.job(ResumeCheckTests.items, directory: directory, resume: false).run()
        let json = try Self.json(directory)
        #expect(json["records"] == nil && json["schema_version"] as? Int == 3)
        let read = try GenerationOutput.read(directory.path)
        #expect(read.records == GenerationStore.ordered(try GenerationStore.records(in: directory)))
        #expect(read.records == run.records && read.records.map(\.itemID) == ["a", "b"])
    }

    @Test func aReportWithVariantsReadsBackItsRecords() throws {
        let directory = try Fixture.temporaryDirectory()
        let report = try GenerationFixtures.variants()
        try Self.writeRun(report, to: directory)
        #expect(try GenerationOutput.read(directory.path).records == GenerationStore.ordered(report.records))
    }

    @Test func aMissingRecordsLogIsRefusedNamingIt() throws {
        let directory = try Fixture.temporaryDirectory()
        try Self.writeRun(try GenerationFixtures.report("base"), to: directory)
        try FileManager.default.removeItem(at: Self.log(directory))
        let json = directory.appendingPathComponent(GenerationOutput.jsonFile)
        #expect {
            _ = try GenerationOutput.read(directory.path)
        } throws: { error in
            "\(error)" == "\(Self.log(directory).path): the per-item records of \(json.path) are missing; copy the whole run directory"
        }
    }

    @Test func aCutRecordsLogIsRefusedNamingIt() throws {
        let directory = try Fixture.temporaryDirectory()
        let report = try GenerationFixtures.report("base")
        try Self.writeRun(report, to: directory)
        try GenerationStore.write(Array(report.records.dropLast()), to: directory)
        #expect {
            _ = try GenerationOutput.read(directory.path)
        } throws: { error in
            "\(error)" == "\(Self.log(directory).path): holds \(report.records.count - 1) records, but generation.json counts \(report.records.count): "
                + "the log was emptied or cut short; copy the whole run directory, or run it again"
        }
    }

    /// A report of schema 2 (its records inside) is refused with the command that records it again, and left as it was.
    @Test func aSchema2ReportIsRefusedNamingItsSchema() throws {
        let directory = try Fixture.temporaryDirectory()
        let report = try GenerationFixtures.report("base")
        try Self.writeRun(report, to: directory)
        try Self.rewriteAsSchema2(report, in: directory)
        let before = try Data(contentsOf: directory.appendingPathComponent(GenerationOutput.jsonFile))
        let json = directory.appendingPathComponent(GenerationOutput.jsonFile).path
        #expect(throws: ConfigurationError.invalid(path: json, reason: "generation report schema_version 2; this LangBench reads 3 only: record the run "
                                                    + "again (`langbench generate` or `langbench run` with the same corpora and profile)")) {
            try GenerationOutput.read(directory.path)
        }
        #expect(try Data(contentsOf: directory.appendingPathComponent(GenerationOutput.jsonFile)) == before)
    }

    /// A resumed run whose corpus lost an item reports without its records, and its log is made to agree.
    @Test func aResumeOverFewerItemsLeavesALogOfTheReportsRecords() async throws {
        let directory = try Fixture.temporaryDirectory()
        _ = try await ResumeCheckTests.job(ResumeCheckTests.items, directory: directory, resume: false).run()
        let fewer = try await ResumeCheckTests.job(Array(ResumeCheckTests.items.prefix(1)), directory: directory, resume: true).run()
        #expect(fewer.records.map(\.itemID) == ["a"])
        #expect(try GenerationStore.records(in: directory) == fewer.records)
        #expect(try GenerationOutput.read(directory.path).records == fewer.records)
    }

    /// `merge` writes the merged records log from its shards' logs.
    @Test func aMergedRunHasItsRecordsLog() throws {
        let records = try GenerationFixtures.records("base"), ids = Set(records.map(\.itemID)).sorted()
        let halves = [Set(ids.prefix(ids.count / 2)), Set(ids.dropFirst(ids.count / 2))]
        var shards: [String] = []
        for half in halves {
            let directory = try Fixture.temporaryDirectory()
            let report = GenerationReport(records: records.filter { half.contains($0.itemID) }, settings: GenerationFixtures.settings, warmupRuns: 2,
                                          provenance: GenerationFixtures.provenance("shard"))
            try Self.writeRun(report, to: directory)
            shards.append(directory.path)
        }
        let merged = try Fixture.temporaryDirectory().appendingPathComponent("merged")
        _ = try RunMerger.merge(shards, into: merged, command: ["merge"])
        #expect(try GenerationStore.records(in: merged) == GenerationStore.ordered(records))
        #expect(try GenerationOutput.read(merged.path).records == GenerationStore.ordered(records))
    }
}
