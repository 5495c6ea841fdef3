import BenchSupport
import Foundation
import Items

/// A finished detection run's per-item results, read back from its results log as a stream in
/// canonical order (config order, then item id) in memory that does not grow with the run: what
/// `compare` and `merge` read. Opening reads the report and the log's header only.
///
///     let store = try DetectionStore("out/run")
///     try DetectionStore.reading([store]) { cursors in
///         while let result = try cursors[0].next() { … }
///     }
///
/// `detect` writes its log in canonical order, and a merge too, so the log is streamed as it is. A log
/// out of that order (a run resumed over a corpus that gained items, one written by an older
/// LangBench) is found out while streaming; `reading` then reads that log sorted in memory, as every
/// log was read before, and runs its pass again. A duplicate result keeps the first; results of
/// configs the report does not name are skipped; a log with fewer or more results of a config than the
/// report counts is an error at the end of the pass.
public struct DetectionStore: Sendable {
    /// The run's report (`detection.json`).
    public let report: DetectionReport
    /// The log's header (nil for a log of format 1).
    public let header: DetectionLogHeader?
    /// The results log.
    public let log: URL
    /// Whether the log is read into memory and sorted rather than streamed (a report of schema 1,
    /// whose item count is taken from its results).
    let sortsInMemory: Bool

    /// The config names of the run, in its order.
    public var configs: [String] { report.configs.map(\.name) }

    /// Opens the run at `path`: a run or detect directory, or its `detection.json`.
    public init(_ path: String) throws {
        var report = try DetectionOutput.read(path)
        let json = DetectionOutput.jsonURL(path)
        log = json.deletingLastPathComponent().appendingPathComponent(report.files["results_log"] ?? DetectionOutput.resultsLog)
        guard FileManager.default.fileExists(atPath: log.path) else {
            throw ConfigurationError.invalid(path: log.path, reason: "the per-item results of \(json.path) are missing; copy the whole run directory")
        }
        header = try DetectionResultLog.header(of: log)
        sortsInMemory = report.schemaVersion < 2
        if sortsInMemory { report.items = Set(try Self.sorted(log, report: report).map(\.itemID)).count }
        self.report = report
    }

    /// The results log of `report`, written in `directory`; nil when there is no log.
    package init?(report: DetectionReport, directory: URL) throws {
        log = directory.appendingPathComponent(report.files["results_log"] ?? DetectionOutput.resultsLog)
        guard FileManager.default.fileExists(atPath: log.path) else { return nil }
        header = try DetectionResultLog.header(of: log)
        sortsInMemory = report.schemaVersion < 2
        self.report = report
    }

    /// A pass over the results from the first, in canonical order. Prefer `reading`, which handles a
    /// log out of canonical order; a cursor of such a log throws `NotInCanonicalOrder`.
    public func results() throws -> Cursor {
        try Cursor(self, inMemory: sortsInMemory)
    }

    /// Every result, in canonical order, in memory (for small runs and tests: `compare` and `merge` stream).
    public func allResults() throws -> [DetectionResult] {
        try Self.reading([self]) { cursors in
            var all: [DetectionResult] = []
            while let result = try cursors[0].next() { all.append(result) }
            return all
        }
    }

    /// Runs `pass` over a fresh cursor of each store, in order, and returns what it returns. When a
    /// log turns out not to be in canonical order, that store is read sorted in memory from then on
    /// and `pass` runs again from the start: it must keep nothing (outside what it returns) from a
    /// pass that threw.
    public static func reading<T>(_ stores: [DetectionStore], _ pass: ([Cursor]) throws -> T) throws -> T {
        var inMemory = stores.map(\.sortsInMemory)
        while true {
            do {
                return try pass(try stores.indices.map { try Cursor(stores[$0], inMemory: inMemory[$0]) })
            } catch let error as NotInCanonicalOrder {
                guard let index = stores.indices.first(where: { stores[$0].log == error.log && !inMemory[$0] }) else { throw error }
                inMemory[index] = true
            }
        }
    }

    /// A log whose results are not in canonical order, found while streaming it.
    public struct NotInCanonicalOrder: Error, CustomStringConvertible {
        public let log: URL
        public var description: String { "\(log.path) is not in canonical order (config order, then item id)" }
    }

    /// The log read whole and sorted: results of the report's configs, in canonical order (config order,
    /// then item id), the first of duplicates kept, checked complete against the report.
    static func sorted(_ log: URL, report: DetectionReport) throws -> [DetectionResult] {
        let configIndex = Dictionary(report.configs.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { a, _ in a })
        var seen = Set<String>()
        let results = try DetectionResultLog.read(log).results
            .filter { configIndex[$0.config] != nil && seen.insert(DetectionRunner.key(item: $0.itemID, config: $0.config)).inserted }
            .sorted { (configIndex[$0.config]!, $0.itemID) < (configIndex[$1.config]!, $1.itemID) }
        var counts: [String: Int] = [:]
        for result in results { counts[result.config, default: 0] += 1 }
        try checkComplete(counts, of: report, log: log)
        return results
    }

    /// A finished run's log holds every result its report counts: an emptied or cut log would otherwise
    /// read as a run of fewer (or no) items.
    static func checkComplete(_ counts: [String: Int], of report: DetectionReport, log: URL) throws {
        for config in report.configs {
            let expected = report.metrics(config: config.name)?.n ?? 0, found = counts[config.name] ?? 0
            guard found != expected else { continue }
            let why = found < expected ? "the log was emptied or cut short" : "the log is not this report's"
            throw ConfigurationError.invalid(path: log.path, reason: "holds \(found) results of config '\(config.name)', but \(DetectionOutput.jsonFile) counts \(expected): "
                                             + "\(why); copy the whole run directory, or run it again")
        }
    }
}
