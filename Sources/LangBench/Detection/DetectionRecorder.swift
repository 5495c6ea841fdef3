import Foundation

/// Takes a run's results in canonical order (config order, then item id) and streams them into the
/// per-item CSV, the running aggregates and — the fresh ones — the results log; `finish` writes the
/// summary files. Memory does not grow with the results.
final class DetectionRecorder {
    private let directory: URL
    private var tally: DetectionTally
    private let items: BufferedFileWriter
    private let log: DetectionResultLog?

    /// `itemCount` sizes the per-item outcome bits; `log` receives fresh results.
    init(directory: URL, echoes: [DetectionReport.ConfigEcho], itemCount: Int, log: DetectionResultLog?) throws {
        self.directory = directory
        tally = DetectionTally(echoes: echoes, items: itemCount)
        items = try BufferedFileWriter(url: directory.appendingPathComponent(DetectionOutput.itemsFile), atomic: true)
        DetectionItemsCSV.header(into: items)
        self.log = log
    }

    /// Records the result of config number `config` for the item at `position`.
    func record(_ result: DetectionResult, config: Int, position: Int, fresh: Bool) throws {
        let correct = tally.add(result, config: config, item: position)
        var flip = ""
        if config > 0, let before = tally.outcome(config: 0, item: position), before != correct {
            flip = correct ? "fixed" : "broken"
        }
        DetectionItemsCSV.row(result, correct: correct, flip: flip, into: items)
        try items.flushIfFull()
        if fresh { try log?.append(result) }
    }

    /// Makes what was recorded so far durable in the log (called after each batch).
    func endOfBatch() throws {
        try log?.flush()
    }

    /// Closes the per-item files and writes the summary files.
    func finish(timings: [DetectionRunner.Timing], provenance: Provenance) throws -> DetectionReport {
        try log?.finish()
        try items.finish()
        let report = DetectionReport(tally: tally, timings: timings, provenance: provenance)
        try DetectionOutput.write(report, to: directory)
        return report
    }
}
