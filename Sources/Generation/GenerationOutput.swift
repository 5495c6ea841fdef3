import Support
import Foundation

/// The files of a generation run.
package enum GenerationOutput {
    package static let itemsFile = "generation-items.csv"
    package static let summaryFile = "generation-summary.csv"
    package static let markdownFile = "generation.md"
    package static let jsonFile = "generation.json"
    package static let diagnosticsFile = "diagnostics.jsonl"
    package static let repliesFile = "replies.jsonl"
    /// Records appended as produced, for resume and merge.
    package static let recordsLog = "generation-records.jsonl"
    package static let serverLog = "llama-server.log"
    /// The run's page, which `RunPage` (a layer up: it also shows detection) writes beside these files.
    package static let pageFile = "report.html"
    /// What a finished run leaves beside its logs (the page written by whoever ran it, once per run).
    package static let reportFiles = [itemsFile, summaryFile, markdownFile, jsonFile, GenerationReport.latencyChartFile, GenerationReport.fallbackChartFile,
                                     GenerationReport.variantChartFile, pageFile]

    /// Writes the summary files: everything but the per-record logs and report.html (`RunPage`, a layer up, written
    /// once per run by the command or suite that ran it).
    package static func write(_ report: GenerationReport, to directory: URL) throws {
        try AtomicFile.write(CSVWriter.render(report.itemsTable), to: directory.appendingPathComponent(itemsFile))
        try AtomicFile.write(CSVWriter.render(report.summaryTable), to: directory.appendingPathComponent(summaryFile))
        try AtomicFile.write(report.markdown, to: directory.appendingPathComponent(markdownFile))
        try AtomicFile.write(try JSONOutput.encode(report), to: directory.appendingPathComponent(jsonFile))
        try AtomicFile.write(report.latencyChart, to: directory.appendingPathComponent(GenerationReport.latencyChartFile))
        try AtomicFile.write(report.fallbackChart, to: directory.appendingPathComponent(GenerationReport.fallbackChartFile))
        if report.variants != nil {
            try AtomicFile.write(report.variantChart, to: directory.appendingPathComponent(GenerationReport.variantChartFile))
        }
    }

    /// Reads the report at `path` (a run directory or its generation.json) with its records, from the records
    /// log beside it (`GenerationStore`). A report of another schema is refused, naming it and how to record again.
    package static func read(_ path: String) throws -> GenerationReport {
        var url = URL(fileURLWithPath: path)
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            url = url.appendingPathComponent(jsonFile)
        }
        let invalid = { (error: Error) in
            ConfigurationError.invalid(path: url.path, reason: "not a LangBench generation report (\(JSONErrorText.describe(error)))")
        }
        let data: Data
        do { data = try Data(contentsOf: url) } catch { throw invalid(error) }
        struct Version: Decodable { let schema_version: Int? }
        // try?: a file that is not even this small object falls through to the full decode and its error.
        if let version = try? JSONDecoder().decode(Version.self, from: data), let found = version.schema_version, found != GenerationReport.schemaVersion {
            throw ConfigurationError.invalid(path: url.path, reason: "generation report schema_version \(found); this LangBench reads "
                + "\(GenerationReport.schemaVersion) only: record the run again (`langbench generate` or `langbench run` with the same corpora and profile)")
        }
        var report: GenerationReport
        do { report = try JSONDecoder().decode(GenerationReport.self, from: data) } catch { throw invalid(error) }
        let records = try GenerationStore.Reader(of: report, json: url).cursor().remaining()
        report.records = records.filter { $0.config == nil }
        report.configRecords = records.filter { $0.config != nil }
        return report
    }
}
