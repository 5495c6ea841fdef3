import Foundation

/// One `detect` run end to end: resolve configs, detect every item (appending each result to
/// `detection-results.jsonl` as it is produced), then write the reports atomically. With `resume`,
/// results already in the log are kept and not redone.
public struct DetectionJob: Sendable {
    public var corpus: Corpus
    public var configs: [DetectionConfig]
    public var supported: [LanguageCode]
    public var factory: DetectorFactory
    public var directory: URL
    public var command: [String]
    public var resume: Bool

    public init(corpus: Corpus, configs: [DetectionConfig], supported: [LanguageCode], factory: DetectorFactory,
                directory: URL, command: [String], resume: Bool = false) {
        self.corpus = corpus
        self.configs = configs
        self.supported = supported
        self.factory = factory
        self.directory = directory
        self.command = command
        self.resume = resume
    }

    public func run(progress: any ProgressObserving = SilentProgress()) async throws -> DetectionReport {
        let provenance = Provenance(command: command, corpora: corpus.sources)
        let factory = self.factory
        let runner = try DetectionRunner(configs: configs, supported: supported) { try await factory.make($0) }
        let logURL = directory.appendingPathComponent(DetectionOutput.resultsLog)
        var previous: [DetectionResult] = []
        if resume {
            previous = try JSONLinesLog<DetectionResult>.read(logURL, repair: true)
        } else if FileManager.default.fileExists(atPath: logURL.path) {
            try ReportError.writing(logURL) { try FileManager.default.removeItem(at: logURL) }  // a fresh run replaces an old log
        }
        let log = try JSONLinesLog<DetectionResult>(url: logURL)
        let done = Set(previous.map { DetectionRunner.key(item: $0.itemID, config: $0.config) })
        let (fresh, timings) = try await runner.run(corpus.items, progress: progress, skip: done) { try log.append($0) }
        let results = Self.ordered(previous + fresh, configs: configs.map(\.name), items: Set(corpus.items.map(\.id)))
        var finished = provenance
        finished.finish()
        let report = DetectionReport(configs: runner.configs, results: results, timings: timings, provenance: finished)
        try DetectionOutput.write(report, to: directory)
        return report
    }

    /// The canonical order of results: config order, then item id. Independent of how the items were
    /// split or interrupted, so a resumed or merged run equals an uninterrupted one. Results for items
    /// or configs not in `configs`/`items` (when given) are dropped; duplicates keep the first.
    public static func ordered(_ results: [DetectionResult], configs: [String], items: Set<String>? = nil) -> [DetectionResult] {
        let configIndex = Dictionary(uniqueKeysWithValues: configs.enumerated().map { ($1, $0) })
        var seen = Set<String>()
        return results
            .filter { configIndex[$0.config] != nil && (items?.contains($0.itemID) ?? true) }
            .filter { seen.insert(DetectionRunner.key(item: $0.itemID, config: $0.config)).inserted }
            .sorted { (configIndex[$0.config]!, $0.itemID) < (configIndex[$1.config]!, $1.itemID) }
    }
}
