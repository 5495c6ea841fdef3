import Support
import Foundation
import Corpus
import Provenance

extension DetectionStore {
    /// Writes a run's per-item results, fresh, resumed or merged: the one way the layers above write the
    /// store, so that its format and a resume's checks stay in this target. Each result is appended to the
    /// log and the report's tallies; `finish` renders the log's view for people (`detection-items.csv`).
    package final class Writer {
        private let recorder: DetectionRecorder
        /// The runner's sink: results the log kept are not redone, and are copied from it in their place.
        package let sink: DetectionRunner.Sink

        private init(recorder: DetectionRecorder, kept: DetectionResume) throws {
            self.recorder = recorder
            let previous = try kept.kept()
            sink = DetectionRunner.Sink(done: kept.isEmpty ? nil : { kept.isDone(config: $0, position: $1) }) { batch in
                try recorder.record(batch) { try previous.result(config: batch.config, position: $0) }
            }
        }

        /// A fresh log with `header` and a fresh per-item CSV in `directory`, replacing any there, for
        /// results of `echoes` over `itemCount` items.
        package convenience init(creating directory: URL, header: DetectionLogHeader, echoes: [DetectionReport.ConfigEcho], itemCount: Int) throws {
            let url = directory.appendingPathComponent(DetectionOutput.resultsLog)
            let log = try DetectionResultLog(creating: url, header: header)
            try SegmentIndex.remove(of: url)
            try self.init(recorder: DetectionRecorder(directory: directory, echoes: echoes, itemCount: itemCount, log: log),
                          kept: DetectionResume(configs: echoes.count))
        }

        /// `detect`'s writer in `directory` for a run of `header`'s configs over `items`. With `resume` and a
        /// log there, the log is checked (`DetectionResume.resuming`) and its results kept. Otherwise the run
        /// starts afresh.
        package static func open(directory: URL, header: DetectionLogHeader, items: SortedCorpus, resume: Bool) throws -> Writer {
            let url = directory.appendingPathComponent(DetectionOutput.resultsLog)
            guard resume, FileManager.default.fileExists(atPath: url.path) else {
                // A fresh run replaces an old log.
                return try Writer(creating: directory, header: header, echoes: header.configs, itemCount: items.count)
            }
            let (kept, log, length) = try DetectionResume.resuming(url, header: header, items: items, directory: directory)
            let recorder = DetectionRecorder(directory: directory, echoes: header.configs, itemCount: items.count, log: log)
            if !kept.isEmpty {
                recorder.beforeFirstFresh = { config, position in
                    if kept.startsSegment(config: config, position: position) { try DetectionResume.indexSegment(of: url, length: length) }
                }
            }
            return try Writer(recorder: recorder, kept: kept)
        }

        /// Records the fresh result of config number `config` for the item at `position`, in canonical order
        /// (a merge's results, a synthetic run's: those the runner's `sink` does not bring).
        package func record(_ result: DetectionResult, config: Int, position: Int) throws {
            try recorder.record(result, config: config, position: position, fresh: true)
        }

        /// Closes the log, renders the per-item CSV and returns the tallies of what was recorded.
        package func finish() throws -> DetectionTally {
            try recorder.finish()
        }

        /// `finish`, then the report of what was recorded, for the caller to write (`DetectionOutput.write`;
        /// the page is written once per run, a layer up).
        package func finish(timings: [DetectionRunner.Timing], provenance: Provenance) throws -> DetectionReport {
            DetectionReport(tally: try finish(), timings: timings, provenance: provenance)
        }
    }
}
