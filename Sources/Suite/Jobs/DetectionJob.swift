import Support
import Detection
import Foundation
import Corpus
import Provenance

/// One `detect` run end to end: resolve configs, detect every item in canonical order (config order,
/// then item id), streaming each result to the per-item CSV, the running aggregates and
/// `detection-results.jsonl`, then write the summary reports atomically. With `resume`, results already
/// in the log are kept and not redone — after checking that they were measured with the same configs,
/// settings and item content.
public struct DetectionJob: Sendable {
    /// The items in canonical order, or the corpus files to read them from when the run starts.
    public var items: Items
    public var configs: [DetectionConfig]
    public var supported: [LanguageCode]
    public var factory: DetectorFactory
    public var directory: URL
    public var command: [String]
    public var resume: Bool
    /// Tasks that detect at once (built-in recognizer); results are the same for any value.
    public var jobs: Int
    /// Items per batch (parallel work unit and log flush); any value gives the same results.
    public var batchSize = 4096
    /// Corpora the suite would have read had set-up built them: recorded in the provenance and said in the reports.
    public var missingCorpora: [String] = []
    /// Texts imports found in several languages (their ambiguity files), detected by every config and scored as any of their languages.
    package var sharedTexts: [SharedTexts] = []

    public init(corpus: Corpus, configs: [DetectionConfig], supported: [LanguageCode], factory: DetectorFactory,
                directory: URL, command: [String], resume: Bool = false, jobs: Int = 1) {
        self.init(items: SortedCorpus(corpus), configs: configs, supported: supported, factory: factory, directory: directory,
                  command: command, resume: resume, jobs: jobs)
    }

    public init(items: SortedCorpus, configs: [DetectionConfig], supported: [LanguageCode], factory: DetectorFactory,
                directory: URL, command: [String], resume: Bool = false, jobs: Int = 1) {
        self.init(items: .sorted(items), configs: configs, supported: supported, factory: factory, directory: directory,
                  command: command, resume: resume, jobs: jobs)
    }

    public init(items: Items, configs: [DetectionConfig], supported: [LanguageCode], factory: DetectorFactory,
                directory: URL, command: [String], resume: Bool = false, jobs: Int = 1) {
        self.items = items
        self.configs = configs
        self.supported = supported
        self.factory = factory
        self.directory = directory
        self.command = command
        self.resume = resume
        self.jobs = jobs
    }

    /// The items of a run.
    public enum Items: Sendable {
        /// Already in canonical order.
        case sorted(SortedCorpus)
        /// Read (`CorpusLoader.loadSorted`, only the shard's items when one is given) when the run starts,
        /// while the detectors are made and the recognizer's model is fingerprinted, so that neither waits
        /// for the other on a second core.
        case reading([String], CorpusLoader, shard: Shard? = nil)

        func load() throws -> SortedCorpus {
            switch self {
            case .sorted(let items): items
            case .reading(let paths, let loader, let shard): try loader.loadSorted(paths, shard: shard)
            }
        }
    }

    public func run(progress: any ProgressObserving = SilentProgress()) async throws -> DetectionReport {
        let factory = self.factory
        let runner = try DetectionRunner(configs: configs, supported: supported, jobs: jobs, batchSize: batchSize) { try await factory.make($0) }
        let echoes = runner.configs.map(DetectionReport.ConfigEcho.init)
        async let made = runner.makeDetectors()
        async let settings = settings()
        let items: SortedCorpus, header: DetectionLogHeader, detectors: DetectionRunner.Detectors
        do {
            // In this order, as one after the other: a corpus error is reported before a detector's.
            items = try self.items.load()
            header = DetectionLogHeader(configs: echoes, settings: try await settings)
            detectors = try await made
        } catch {
            // Made detectors end (an error making them is not the one to report).
            if let detectors = try? await made { await detectors.shutdown() }
            throw error
        }
        do {
            return try await run(items: items, header: header, runner: runner, detectors: detectors, progress: progress)
        } catch {
            await detectors.shutdown()  // at most once more: ending a detector twice is harmless
            throw error
        }
    }

    private func run(items: SortedCorpus, header: DetectionLogHeader, runner: DetectionRunner, detectors: DetectionRunner.Detectors,
                     progress: any ProgressObserving) async throws -> DetectionReport {
        // The corpora's hashes are asked for at the end: a replayed corpus is hashed as it is read.
        let provenance = Provenance(command: command, corpora: [])
        let costs = try ConfusionCosts.standard()  // read before detecting: a bad file stops the run before any work
        let store = try DetectionStore.Writer.open(directory: directory, header: header, items: items, resume: resume)
        // Before the items: the run shuts the detectors down when it ends. Not logged, so a resumed run detects them again.
        var shared: [SharedTextSlice] = []
        for texts in sharedTexts { shared.append(await runner.detect(texts, detectors: detectors)) }
        let timings = try await runner.run(items, detectors: detectors, progress: progress, sink: store.sink)
        var finished = provenance
        finished.corpora = try items.sources
        if !missingCorpora.isEmpty { finished.missingCorpora = missingCorpora }
        finished.finish()
        var report = try store.finish(timings: timings, provenance: finished)
        report.confusionCosts = costs
        report.sharedTexts = shared
        try DetectionOutput.write(report, to: directory)
        return report
    }

    /// The settings outside the configs that change results, for the log header.
    func settings() throws -> DetectionLogHeader.Settings {
        try DetectionLogHeader.Settings(recognizerModelAt: builtinModelURL(),
                                        execTimeoutSeconds: configs.contains(where: { DetectorKind($0.detector)?.isExec == true }) ? factory.timeout.seconds : nil)
    }

    /// The built-in recognizer's model file when a config uses `builtin`.
    private func builtinModelURL() throws -> URL? {
        guard configs.contains(where: { DetectorKind($0.detector) == .builtin }) else { return nil }
        return try BuiltinDetector.modelURL(path: factory.recognizerModel)
    }
}
