import Foundation

/// The files of a detection run, written atomically into a run directory.
public enum DetectionOutput {
    public static let itemsFile = "detection-items.csv"
    public static let summaryFile = "detection-summary.csv"
    public static let markdownFile = "detection.md"
    public static let jsonFile = "detection.json"
    /// Raw results appended as they are produced (so an interrupted run loses nothing).
    public static let resultsLog = "detection-results.jsonl"

    public static func write(_ report: DetectionReport, to directory: URL) throws {
        try AtomicFile.write(CSVWriter.render(report.itemsTable), to: directory.appendingPathComponent(itemsFile))
        try AtomicFile.write(CSVWriter.render(report.summaryTable), to: directory.appendingPathComponent(summaryFile))
        try AtomicFile.write(report.markdown, to: directory.appendingPathComponent(markdownFile))
        try AtomicFile.write(try JSONOutput.encode(report), to: directory.appendingPathComponent(jsonFile))
        try AtomicFile.write(report.lengthChart, to: directory.appendingPathComponent(DetectionReport.lengthChartFile))
        if let chart = report.confusionChart {
            try AtomicFile.write(chart, to: directory.appendingPathComponent(DetectionReport.confusionChartFile))
        }
    }

    public static func read(_ path: String) throws -> DetectionReport {
        var url = URL(fileURLWithPath: path)
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            url = url.appendingPathComponent(jsonFile)
        }
        do {
            return try JSONDecoder().decode(DetectionReport.self, from: Data(contentsOf: url))
        } catch {
            throw ConfigurationError.invalid(path: url.path, reason: "not a LangBench detection report (\(JSONErrorText.describe(error)))")
        }
    }
}
