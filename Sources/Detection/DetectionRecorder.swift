import Support
import Foundation
import Provenance
import ByteIO

/// Takes a run's results in canonical order (config order, then item id) and streams them into the
/// per-item CSV, the running aggregates and — the fresh ones — the results log; `finish` writes the
/// summary files. Memory does not grow with the results.
///
/// Both per-item files come from the same result in the same pass: `detection-results.jsonl` is the
/// store LangBench reads back (`--resume`, `compare`, `merge`), with each item's fingerprint;
/// `detection-items.csv` is its view for people and spreadsheets (correct, and fixed or broken against
/// the first config), never read back.
final class DetectionRecorder {
    private let directory: URL
    private var tally: DetectionTally
    private let items: BufferedFileWriter
    private let log: DetectionResultLog?
    /// Called once, with the config number and item position of the first fresh result, before it is
    /// appended to the log (a resume's segment index: `DetectionStore.Writer.open`).
    var beforeFirstFresh: ((Int, Int) throws -> Void)?

    /// `itemCount` sizes the per-item outcome bits; `log` receives fresh results.
    init(directory: URL, echoes: [DetectionReport.ConfigEcho], itemCount: Int, log: DetectionResultLog?) throws {
        self.directory = directory
        tally = DetectionTally(echoes: echoes, items: itemCount)
        items = try BufferedFileWriter(url: directory.appendingPathComponent(DetectionOutput.itemsFile), atomic: true)
        DetectionItemsCSV.header(into: items)
        self.log = log
    }

    /// Records the result of config number `config` for the item at `position` (results not encoded
    /// ahead: resumed and merged ones).
    func record(_ result: DetectionResult, config: Int, position: Int, fresh: Bool) throws {
        if fresh, let hook = beforeFirstFresh {
            try hook(config, position)
            beforeFirstFresh = nil
        }
        try record(result, config: config, position: position, fresh: fresh, tally: &tally)
    }

    /// Records a batch of config number `config`: the fresh results (built here when they come as
    /// detections) and the others (`previous`), each encoded straight into the files; then makes the log
    /// durable up to this batch.
    func record(_ batch: DetectionRunner.Batch, previous: (Int) throws -> DetectionResult) throws {
        if let hook = beforeFirstFresh, let first = batch.todo.first {
            try hook(batch.config, first)
            beforeFirstFresh = nil
        }
        try record(batch, config: batch.config, previous: previous, tally: &tally)
        try log?.flush()
    }

    /// The same, with the tally borrowed once for the batch rather than checked for exclusive access per result.
    private func record(_ batch: DetectionRunner.Batch, config: Int, previous: (Int) throws -> DetectionResult, tally: inout DetectionTally) throws {
        var position = batch.positions.lowerBound, next = 0
        func recordPrevious(upTo end: Int) throws {
            while position < end {
                try record(previous(position), config: config, position: position, fresh: false, tally: &tally)
                position += 1
            }
        }
        for chunk in batch.fresh {
            switch chunk {
            case .detections(let detections):
                let cells = Self.cells(config: detections.config, detector: detections.detector)
                for entry in 0..<detections.count {
                    try recordPrevious(upTo: batch.todo[next])
                    let (result, fingerprint) = detections.result(entry)
                    let (correct, flip) = Self.score(result, config: config, position: position, tally: &tally)
                    let bound = result.encodedBound
                    try items.write(bound: bound) { DetectionItemsCSV.row(result, correct: correct, flip: flip, into: &$0, fixed: cells.csv) }
                    try log?.append(bound: bound) { DetectionResultLine.encode(result, fingerprint: fingerprint, into: &$0, fixed: cells.log) }
                    position += 1
                    next += 1
                }
            case .results(let results):
                for result in results {
                    try recordPrevious(upTo: batch.todo[next])
                    try record(result, config: config, position: position, fresh: true, tally: &tally)
                    position += 1
                    next += 1
                }
            }
        }
        try recordPrevious(upTo: batch.positions.upperBound)
    }

    private func record(_ result: DetectionResult, config: Int, position: Int, fresh: Bool, tally: inout DetectionTally) throws {
        let (correct, flip) = Self.score(result, config: config, position: position, tally: &tally)
        let bound = result.encodedBound
        try items.write(bound: bound) { DetectionItemsCSV.row(result, correct: correct, flip: flip, into: &$0) }
        if fresh, let log {
            try log.append(bound: bound) { DetectionResultLine.encode(result, into: &$0) }
        }
    }

    /// The per-item CSV cells and the log fields of a config and detector, encoded once for a chunk's results.
    static func cells(config: String, detector: String) -> (csv: FixedCells, log: FixedCells) {
        (FixedCells(config: config, detector: detector, encode: DetectionItemsCSV.configAndDetector),
         FixedCells(config: config, detector: detector, encode: DetectionResultLine.configAndDetector))
    }

    /// Adds `result` to `tally`; whether it is correct, and `fixed` or `broken` when the first config's
    /// outcome for the item differs (else empty).
    private static func score(_ result: DetectionResult, config: Int, position: Int, tally: inout DetectionTally) -> (correct: Bool, flip: String) {
        let correct = tally.add(result, config: config, item: position)
        guard config > 0, let before = tally.outcome(config: 0, item: position), before != correct else { return (correct, "") }
        return (correct, correct ? "fixed" : "broken")
    }

    /// Closes the per-item files and returns the tallies of what was recorded (the report's figures).
    func finish() throws -> DetectionTally {
        try log?.finish()
        try items.finish()
        return tally
    }
}
