import Support
import Foundation
import Corpus
import ByteIO

/// A finished detection run's per-item results, read back from its results log as a stream in
/// canonical order (config order, then item id) in memory that does not grow with the run: what
/// `compare` and `merge` read. Opening reads the report and the log's header only.
///
///     let cursor = try DetectionStore("out/run").cursor()
///     while let result = try cursor.next() { … }
///
/// `detect` writes its log in canonical order, and a merge too, so the log is streamed as it is. A
/// resume appends its fresh results in canonical order after the kept ones, so a resumed log is a few
/// canonical segments (one, unless the corpus gained items before those logged); the resume writes where
/// each starts (`SegmentIndex`), and a cursor reads them merged in one pass — memory is a reader per
/// segment, not the results. A duplicate result keeps the first; results of configs the report does not
/// name are skipped; a log with fewer or more results of a config than the report counts is a
/// `DamagedLog` at the end of the pass.
package struct DetectionStore: Sendable {
    /// The run's report (`detection.json`).
    package let report: DetectionReport
    /// The log's header (nil for a log of format 1).
    package let header: DetectionLogHeader?
    /// The results log.
    package let log: URL

    /// The config names of the run, in its order.
    package var configs: [String] { report.configs.map(\.name) }

    /// Opens the run at `path`: a run or detect directory, or its `detection.json`.
    package init(_ path: String) throws {
        let report = try DetectionOutput.read(path)
        let json = DetectionOutput.jsonURL(path)
        guard report.schemaVersion >= 2 else {
            throw ConfigurationError.invalid(path: json.path, reason: "detection report schema_version \(report.schemaVersion), written by an older LangBench without its item count; "
                                             + "this LangBench reads \(DetectionReport.schemaVersion): run detect again")
        }
        log = json.deletingLastPathComponent().appendingPathComponent(report.files["results_log"] ?? DetectionOutput.resultsLog)
        guard FileManager.default.fileExists(atPath: log.path) else {
            throw DamagedLog(path: log.path, reason: "the per-item results of \(json.path) are missing; copy the whole run directory")
        }
        header = try DetectionResultLog.header(of: log)
        self.report = report
    }

    /// The results log of `report`, written in `directory`; nil when there is no log.
    package init?(report: DetectionReport, directory: URL) throws {
        log = directory.appendingPathComponent(report.files["results_log"] ?? DetectionOutput.resultsLog)
        guard FileManager.default.fileExists(atPath: log.path) else { return nil }
        header = try DetectionResultLog.header(of: log)
        self.report = report
    }

    /// A pass over the results from the first, in canonical order (a log of several segments read merged).
    package func cursor() throws -> Cursor {
        try Cursor(self)
    }

    /// Every result, in canonical order, in memory (for small runs and tests: `compare` and `merge` stream).
    package func allResults() throws -> [DetectionResult] {
        try cursor().remaining()
    }

    /// Two different results of one config and item in `log`: refused (65) naming the key and the lines that hold
    /// it (found by a second read; this is the error path), since keeping either would be a silent choice.
    static func conflictingDuplicate(_ result: DetectionResult, in log: URL) -> DamagedLog {
        let key = "[\(JSONOutput.quoted(result.config)),\(JSONOutput.quoted(result.detector)),\(JSONOutput.quoted(result.itemID)),"
        let lines = LogLines.numbers(in: log) { $0.hasPrefix(key) }
        let named = lines.isEmpty ? "" : " (lines \(lines.map(String.init).joined(separator: ", ")))"
        return DamagedLog(path: log.path, reason: "holds two different results of config '\(result.config)', item '\(result.itemID)'\(named): "
                                          + "the log was edited or written by two runs; remove the wrong line, or run again without --resume")
    }

    /// A finished run's log holds every result its report counts: an emptied or cut log would otherwise
    /// read as a run of fewer (or no) items.
    static func checkComplete(_ counts: [String: Int], of report: DetectionReport, log: URL) throws {
        for config in report.configs {
            let expected = report.metrics(config: config.name)?.n ?? 0, found = counts[config.name] ?? 0
            guard found != expected else { continue }
            let why = found < expected ? "the log was emptied or cut short" : "the log is not this report's"
            throw DamagedLog(path: log.path, reason: "holds \(found) results of config '\(config.name)', but \(DetectionOutput.jsonFile) counts \(expected): "
                                             + "\(why); copy the whole run directory, or run it again")
        }
    }

    /// A finished run's log holds, per config, as many results of each language as its report counts (`lang=` slices,
    /// equivalent codes counted as one). Another run's log of as many items — another corpus, another shard — does not;
    /// an edited prediction does (re-deriving reports from an edited log is what `merge` is for).
    static func checkLanguages(_ found: [String: [LanguageCode: Int]], of report: DetectionReport, log: URL) throws {
        for config in report.configs {
            // The config's per-language slices, each with its language.
            let slices = report.slices.compactMap { slice in
                slice.config == config.name ? SliceKey(slice.slice)?.language.map { (LanguageCode(normalised: $0), slice.metrics.n) } : nil
            }
            guard !slices.isEmpty, let languages = found[config.name] else { continue }
            let codes = slices.map(\.0)
            var counted = Array(repeating: 0, count: slices.count), unmatched: [(LanguageCode, Int)] = []
            for (language, count) in languages {
                // Its own slice first (zh and zh-Hans are two), else the one its code is equivalent to.
                if let index = codes.firstIndex(of: language) ?? codes.firstIndex(where: { $0.isEquivalent(to: language) }) {
                    counted[index] += count
                } else {
                    unmatched.append((language, count))
                }
            }
            let differing = zip(codes, zip(counted, slices.map(\.1))).first { $0.1.0 != $0.1.1 }
            guard unmatched.isEmpty, differing == nil else {
                let what = unmatched.first.map { "\($0.1) results in \($0.0.identifier), a language" }
                    ?? differing.map { "\($0.1.0) results in \($0.0.identifier), where" } ?? ""
                let counts = unmatched.isEmpty ? "\(DetectionOutput.jsonFile) counts \(differing!.1.1)" : "\(DetectionOutput.jsonFile) has none of"
                throw DamagedLog(path: log.path, reason: "holds \(what) \(counts) for config '\(config.name)': the log is another run's "
                                 + "(another corpus or shard); copy the whole run directory, or run it again")
            }
        }
    }

    /// The report at `path` and its per-item results in canonical order (config order, then item id),
    /// all in memory (tests; every command streams them).
    package static func readRun(_ path: String) throws -> (report: DetectionReport, results: [DetectionResult], header: DetectionLogHeader?) {
        let store = try DetectionStore(path)
        return (store.report, try store.allResults(), store.header)
    }
}
