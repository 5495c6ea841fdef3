import BenchSupport
import Foundation
import Items
import RunProvenance

extension DetectionStore {
    /// Writes a run's per-item results (the results log and the per-item CSV), fresh or resumed: the one
    /// way the layers above write the store, so that its format, a resume's checks and an older log's
    /// conversion stay in this target.
    public final class Writer {
        private let recorder: DetectionRecorder
        /// The runner's sink: results the log kept are not redone, and are copied from it in their place.
        public let sink: DetectionRunner.Sink

        private init(recorder: DetectionRecorder, kept: DetectionResume) throws {
            self.recorder = recorder
            let previous = try kept.kept()
            sink = DetectionRunner.Sink(done: kept.isEmpty ? nil : { kept.isDone(config: $0, position: $1) }) { config, batch in
                try recorder.record(batch, config: config) { try previous.result(config: config, position: $0) }
            }
        }

        /// A fresh log with `header` and a fresh per-item CSV in `directory`, replacing any there, for
        /// results of `echoes` over `itemCount` items.
        public convenience init(creating directory: URL, header: DetectionLogHeader, echoes: [DetectionReport.ConfigEcho], itemCount: Int) throws {
            let log = try DetectionResultLog(creating: directory.appendingPathComponent(DetectionOutput.resultsLog), header: header)
            try self.init(recorder: DetectionRecorder(directory: directory, echoes: echoes, itemCount: itemCount, log: log),
                          kept: DetectionResume(configs: echoes.count))
        }

        /// `detect`'s writer in `directory` for a run of `header`'s configs over `items`. With `resume` and a
        /// log there, the log is checked (`DetectionResume.resuming`) and its results kept. Otherwise the run
        /// starts afresh.
        public static func open(directory: URL, header: DetectionLogHeader, items: SortedCorpus, resume: Bool) throws -> Writer {
            let url = directory.appendingPathComponent(DetectionOutput.resultsLog)
            guard resume, FileManager.default.fileExists(atPath: url.path) else {
                // A fresh run replaces an old log.
                return try Writer(creating: directory, header: header, echoes: header.configs, itemCount: items.count)
            }
            let (kept, log) = try DetectionResume.resuming(url, header: header, items: items, directory: directory)
            let recorder = try DetectionRecorder(directory: directory, echoes: header.configs, itemCount: items.count, log: log)
            return try Writer(recorder: recorder, kept: kept)
        }

        /// Records the fresh result of config number `config` for the item at `position`, in canonical order
        /// (a merge's results, a synthetic run's: those the runner's `sink` does not bring).
        public func record(_ result: DetectionResult, config: Int, position: Int) throws {
            try recorder.record(result, config: config, position: position, fresh: true)
        }

        /// Closes the log and the per-item CSV and returns the report of what was recorded, for the caller
        /// to write (`DetectionOutput.write`; the page is written once per run, a layer up).
        public func finish(timings: [DetectionRunner.Timing], provenance: Provenance) throws -> DetectionReport {
            try recorder.finish(timings: timings, provenance: provenance)
        }
    }
}
