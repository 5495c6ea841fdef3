import Support
import Foundation

/// The files of a detection run in a run directory. The summary files are written atomically at the
/// end; the per-item files stream (`DetectionStore.Writer`).
package enum DetectionOutput {
    package static let itemsFile = DetectionReport.itemsFile
    package static let summaryFile = "detection-summary.csv"
    package static let markdownFile = "detection.md"
    package static let jsonFile = "detection.json"
    /// Raw results appended as they are produced (so an interrupted run loses little), see `DetectionResultLog`.
    package static let resultsLog = DetectionReport.resultsLog

    /// Writes the summary files: everything but the per-item CSV, the results log and report.html
    /// (`RunPage`, a layer up, written once per run by the command or suite that ran it).
    package static func write(_ report: DetectionReport, to directory: URL) throws {
        try AtomicFile.write(CSVWriter.render(report.summaryTable), to: directory.appendingPathComponent(summaryFile))
        try AtomicFile.write(report.markdown, to: directory.appendingPathComponent(markdownFile))
        try AtomicFile.write(try JSONOutput.encode(report), to: directory.appendingPathComponent(jsonFile))
        try AtomicFile.write(report.lengthChart, to: directory.appendingPathComponent(DetectionReport.lengthChartFile))
        if let chart = report.confusionChart {
            try AtomicFile.write(chart, to: directory.appendingPathComponent(DetectionReport.confusionChartFile))
        }
        if let chart = report.candidateSetChart {
            try AtomicFile.write(chart, to: directory.appendingPathComponent(DetectionReport.candidateSetChartFile))
        }
        if let chart = report.sweepChart {
            try AtomicFile.write(chart, to: directory.appendingPathComponent(DetectionReport.sweepChartFile))
        }
    }

    /// The report at `path`: a run directory or its detection.json.
    package static func read(_ path: String) throws -> DetectionReport {
        let url = jsonURL(path)
        do {
            return try JSONDecoder().decode(DetectionReport.self, from: Data(contentsOf: url))
        } catch {
            throw ConfigurationError.invalid(path: url.path, reason: "not a LangBench detection report (\(JSONErrorText.describe(error)))")
        }
    }

    static func jsonURL(_ path: String) -> URL {
        var isDirectory: ObjCBool = false
        let url = URL(fileURLWithPath: path)
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            return url.appendingPathComponent(jsonFile)
        }
        return url
    }
}
