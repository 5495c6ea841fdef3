import BenchSupport
import Detection
import Foundation
import Items
import RunProvenance

/// `langbench run`: the detection half then the generation half of a suite config into one run
/// directory, with report.md / report.json over both.
public struct SuiteRunner: Sendable {
    public var config: BenchConfig
    public var shard: Shard?
    public var factory: DetectorFactory
    public var server: ServerSource
    public var directory: URL
    public var environment: [String: String]
    public var command: [String]
    /// Keep results already in the run directory's logs and do only the rest.
    public var resume: Bool

    public init(config: BenchConfig, shard: Shard? = nil, factory: DetectorFactory = DetectorFactory(), server: ServerSource = ServerSource(),
                directory: URL, environment: [String: String], command: [String], resume: Bool = false) {
        self.config = config
        self.shard = shard
        self.factory = factory
        self.server = server
        self.directory = directory
        self.environment = environment
        self.command = command
        self.resume = resume
    }

    public func run(progress: any ProgressObserving = SilentProgress()) async throws -> SuiteReport {
        var detection: DetectionReport?
        var generation: GenerationReport?
        var provenance = Provenance(command: command, corpora: [])
        if let half = config.detection {
            let corpus = try load(half.corpora)
            provenance.corpora += corpus.sources
            let profile = try ModelProfile.load(config.generation?.profile ?? ModelProfile.defaultPath)
            let job = DetectionJob(corpus: corpus, configs: half.configs ?? DetectionConfig.defaults(detector: half.detector),
                                   supported: profile.supportedLanguages, factory: factory, directory: directory,
                                   command: command, resume: resume, jobs: ProcessInfo.processInfo.activeProcessorCount)
            detection = try await job.run(progress: progress)
        }
        if let half = config.generation {
            let corpus = try load(half.corpora)
            provenance.corpora += corpus.sources
            let setup = GenerationSetup(plan: half.plan, factory: factory, server: server, profile: try ModelProfile.load(half.profile),
                                        directory: directory, environment: environment)
            generation = try await setup.run(corpus: corpus, command: command, resume: resume, progress: progress)
        }
        provenance.finish()
        let files = try ReportError.reading(directory) { try FileManager.default.contentsOfDirectory(atPath: directory.path) }
            .filter { !$0.hasPrefix(".") }
        let report = SuiteReport(runID: directory.lastPathComponent, shard: shard, provenance: provenance, detection: detection,
                                 generation: generation, files: Array(Set(files + [SuiteReport.markdownFile, SuiteReport.jsonFile])).sorted())
        try report.write(to: directory)
        return report
    }

    private func load(_ paths: [String]) throws -> Corpus {
        let corpus = try CorpusLoader().load(paths)
        return shard?.apply(corpus) ?? corpus
    }
}
