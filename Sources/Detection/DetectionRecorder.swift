import Support
import Foundation
import Provenance
import ByteIO

/// Takes a run's results in canonical order (config order, then item id) and streams the fresh ones into
/// the results log and every one into the running aggregates; `finish` derives the per-item CSV from the
/// log. Memory does not grow with the results.
///
/// The log (`detection-results.jsonl`) is the one per-item write: the store LangBench reads back
/// (`--resume`, `compare`, `merge`), with each item's fingerprint. `detection-items.csv`, its view for
/// people and spreadsheets (correct, and fixed or broken against the first config), is rendered from it
/// in one cursor pass at the end (`DetectionItemsCSV.write`) and never read back.
final class DetectionRecorder {
    private let directory: URL
    private var tally: DetectionTally
    private let log: DetectionResultLog
    /// Called once, with the config number and item position of the first fresh result, before it is
    /// appended to the log (a resume's segment index: `DetectionStore.Writer.open`).
    var beforeFirstFresh: ((Int, Int) throws -> Void)?

    /// `itemCount` sizes the per-item outcome bits; `log` receives fresh results.
    init(directory: URL, echoes: [DetectionReport.ConfigEcho], itemCount: Int, log: DetectionResultLog) {
        self.directory = directory
        tally = DetectionTally(echoes: echoes, items: itemCount)
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
        try log.flush()
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
                let cells = FixedCells(config: detections.config, detector: detections.detector, encode: DetectionResultLine.configAndDetector)
                for entry in 0..<detections.count {
                    try recordPrevious(upTo: batch.todo[next])
                    let (result, fingerprint) = detections.result(entry)
                    tally.add(result, config: config, item: position)
                    try log.append(bound: result.encodedBound) { DetectionResultLine.encode(result, fingerprint: fingerprint, into: &$0, fixed: cells) }
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
        tally.add(result, config: config, item: position)
        if fresh {
            try log.append(bound: result.encodedBound) { DetectionResultLine.encode(result, into: &$0) }
        }
    }

    /// Closes the log, renders the per-item CSV from it, and returns the tallies of what was recorded.
    func finish() throws -> DetectionTally {
        try log.finish()
        try DetectionItemsCSV.write(from: DetectionStore.Cursor(log: log.url, length: nil, configs: tally.echoes.map(\.name)), tally: tally,
                                    to: directory.appendingPathComponent(DetectionOutput.itemsFile))
        return tally
    }
}
