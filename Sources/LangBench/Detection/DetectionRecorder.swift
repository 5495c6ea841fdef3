import Foundation

/// Takes a run's results in canonical order (config order, then item id) and streams them into the
/// per-item CSV, the running aggregates and — the fresh ones — the results log; `finish` writes the
/// summary files. Memory does not grow with the results.
final class DetectionRecorder {
    private let directory: URL
    private var tally: DetectionTally
    private let items: BufferedFileWriter
    private let log: DetectionResultLog?
    /// One row being assembled.
    private var scratch: [UInt8] = []

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
        let correct = tally.add(result, config: config, item: position)
        scratch.removeAll(keepingCapacity: true)
        DetectionItemsCSV.row(result, correct: correct, flip: flip(config: config, position: position, correct: correct), into: &scratch)
        items.append(bytes: scratch)
        try items.flushIfFull()
        if fresh, let log {
            scratch.removeAll(keepingCapacity: true)
            DetectionResultLine.encode(result, into: &scratch)
            try log.append(lines: scratch)
        }
    }

    /// Records a batch of config number `config`: the fresh results' bytes as encoded, the others
    /// (`previous`) encoded here; then makes the log durable up to this batch.
    func record(_ batch: DetectionRunner.Batch, config: Int, previous: (Int) -> DetectionResult) throws {
        var chunk = 0, entry = 0, next = 0
        for position in batch.positions {
            guard next < batch.todo.count && batch.todo[next] == position else {
                try record(previous(position), config: config, position: position, fresh: false)
                continue
            }
            while entry == batch.fresh[chunk].count { chunk += 1; entry = 0 }
            let encoded = batch.fresh[chunk]
            let correct = tally.add(encoded.results[entry], config: config, item: position)
            let (head, tail) = encoded.row(entry)
            scratch.removeAll(keepingCapacity: true)
            scratch.append(contentsOf: head)
            DetectionItemsCSV.middle(correct: correct, flip: flip(config: config, position: position, correct: correct), into: &scratch)
            scratch.append(contentsOf: tail)
            items.append(bytes: scratch)
            try items.flushIfFull()
            entry += 1
            next += 1
        }
        for encoded in batch.fresh { try log?.append(lines: encoded.log) }
        try log?.flush()
    }

    /// `fixed` or `broken` when the first config's outcome for the item differs, else empty.
    private func flip(config: Int, position: Int, correct: Bool) -> String {
        guard config > 0, let before = tally.outcome(config: 0, item: position), before != correct else { return "" }
        return correct ? "fixed" : "broken"
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
