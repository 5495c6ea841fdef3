import Foundation

/// The files of a detection run in a run directory. The summary files are written atomically at the
/// end; the per-item files stream (`DetectionRecorder`).
public enum DetectionOutput {
    public static let itemsFile = "detection-items.csv"
    public static let summaryFile = "detection-summary.csv"
    public static let markdownFile = "detection.md"
    public static let jsonFile = "detection.json"
    /// Raw results appended as they are produced (so an interrupted run loses little), see `DetectionResultLog`.
    public static let resultsLog = DetectionResultLog.fileName

    /// Writes the summary files: everything but the per-item CSV and the results log.
    public static func write(_ report: DetectionReport, to directory: URL) throws {
        try AtomicFile.write(CSVWriter.render(report.summaryTable), to: directory.appendingPathComponent(summaryFile))
        try AtomicFile.write(report.markdown, to: directory.appendingPathComponent(markdownFile))
        try AtomicFile.write(try JSONOutput.encode(report), to: directory.appendingPathComponent(jsonFile))
        try AtomicFile.write(report.lengthChart, to: directory.appendingPathComponent(DetectionReport.lengthChartFile))
        if let chart = report.confusionChart {
            try AtomicFile.write(chart, to: directory.appendingPathComponent(DetectionReport.confusionChartFile))
        }
        try RunPage.write(detection: report, generation: nil, to: directory)
    }

    /// The report at `path`: a run directory or its detection.json.
    public static func read(_ path: String) throws -> DetectionReport {
        let url = jsonURL(path)
        do {
            return try JSONDecoder().decode(DetectionReport.self, from: Data(contentsOf: url))
        } catch {
            throw ConfigurationError.invalid(path: url.path, reason: "not a LangBench detection report (\(JSONErrorText.describe(error)))")
        }
    }

    /// The report at `path` and its per-item results, read from the results log the report names, in
    /// canonical order (config order, then item id). The one way `compare` and `merge` read results.
    public static func readRun(_ path: String) throws -> (report: DetectionReport, results: [DetectionResult], header: DetectionLogHeader?) {
        var report = try read(path)
        let log = jsonURL(path).deletingLastPathComponent().appendingPathComponent(report.files["results_log"] ?? resultsLog)
        guard FileManager.default.fileExists(atPath: log.path) else {
            throw ConfigurationError.invalid(path: log.path, reason: "the per-item results of \(jsonURL(path).path) are missing; copy the whole run directory")
        }
        let logged = try DetectionResultLog.read(log)
        let results = DetectionJob.ordered(logged.results, configs: report.configs.map(\.name))
        try checkComplete(results, of: report, log: log)
        if report.schemaVersion < 2 { report.items = Set(results.map(\.itemID)).count }
        return (report, results, logged.header)
    }

    /// A finished run's log holds every result its report counts: an emptied or cut log would otherwise
    /// read as a run of fewer (or no) items.
    static func checkComplete(_ results: [DetectionResult], of report: DetectionReport, log: URL) throws {
        var counts: [String: Int] = [:]
        for result in results { counts[result.config, default: 0] += 1 }
        for config in report.configs {
            let expected = report.metrics(config: config.name)?.n ?? 0, found = counts[config.name] ?? 0
            guard found != expected else { continue }
            let why = found < expected ? "the log was emptied or cut short" : "the log is not this report's"
            throw ConfigurationError.invalid(path: log.path, reason: "holds \(found) results of config '\(config.name)', but \(jsonFile) counts \(expected): "
                                             + "\(why); copy the whole run directory, or run it again")
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
