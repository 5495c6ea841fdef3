import Support
import Detection
import Foundation
import Generation
import Corpus
import Provenance

/// `langbench run`: the detection half then the generation half of a suite config into one run
/// directory, with report.md / report.json over both.
package struct SuiteRunner: Sendable {
    package var config: BenchConfig
    package var shard: Shard?
    package var factory: DetectorFactory
    package var server: ServerSource
    package var directory: URL
    package var environment: [String: String]
    package var command: [String]
    /// Keep results already in the run directory's logs and do only the rest.
    package var resume: Bool
    /// Tasks that detect at once (`detect --jobs`); results are the same for any value.
    package var jobs: Int

    package init(config: BenchConfig, shard: Shard? = nil, factory: DetectorFactory = DetectorFactory(), server: ServerSource = ServerSource(),
                directory: URL, environment: [String: String], command: [String], resume: Bool = false,
                jobs: Int = ProcessInfo.processInfo.activeProcessorCount) {
        self.config = config
        self.shard = shard
        self.factory = factory
        self.server = server
        self.directory = directory
        self.environment = environment
        self.command = command
        self.resume = resume
        self.jobs = jobs
    }

    package func run(progress: any ProgressObserving = SilentProgress()) async throws -> SuiteReport {
        var detection: DetectionReport?
        var generation: GenerationReport?
        var provenance = Provenance(command: command, corpora: [])
        // What would refuse the generation half is checked before the detection half runs and writes its reports.
        let generationConfigs = try config.generation.map { _ in try config.generationConfigs() }
        if let generationConfigs { try GenerationSetup.check(generationConfigs) }
        let profile = try config.generation.map { try ModelProfile.load($0.profile) }
        if let half = config.detection {
            // As `detect` reads: in id order with bounded memory, a shard's items only.
            // A corpus built at set-up (the outside corpus) is read when it is there; a missing one is said, never passed over in silence.
            // Its texts found in several languages (the ambiguity file beside it) are detected too, scored as any of their languages.
            let built = half.optionalCorpora.filter { FileManager.default.fileExists(atPath: $0) }
            let shared = built.map(SharedTexts.path(beside:))
            let missing = half.optionalCorpora.filter { !built.contains($0) } + shared.filter { !FileManager.default.fileExists(atPath: $0) }
            let items = DetectionJob.Items.reading(half.corpora + built, CorpusLoader(), shard: shard)
            let configs = half.configs ?? DetectionConfig.defaults(detector: half.detector)
            // The profile is read only when a config's candidates name it (`profile:supported`).
            let supported = configs.usesProfile ? try ModelProfile.load(config.generation?.profile ?? ModelProfile.defaultPath).supportedLanguages : []
            var job = DetectionJob(items: items, configs: configs, supported: supported, factory: factory, directory: directory,
                                   command: command, resume: resume, jobs: jobs)
            job.missingCorpora = missing
            job.sharedTexts = try shared.filter { FileManager.default.fileExists(atPath: $0) }.map { try SharedTexts.load($0, shard: shard) }
            let report = try await job.run(progress: progress)
            provenance.corpora += report.provenance.corpora
            provenance.missingCorpora = report.provenance.missingCorpora
            detection = report
        }
        if let half = config.generation {
            let corpus = try GenerationSetup.corpus(half.corpora, loader: CorpusLoader(), shard: shard)
            provenance.corpora += corpus.sources
            let configs = generationConfigs ?? []
            var setup = GenerationSetup(plan: half.plan, detection: configs[0], factory: factory, server: server,
                                        profile: try profile ?? ModelProfile.load(half.profile), directory: directory, environment: environment)
            setup.configs = Array(configs.dropFirst())
            setup.secondJudge = half.judge
            generation = try await setup.run(corpus: corpus, command: command, resume: resume, progress: progress)
        }
        provenance.finish()
        let files = try ReportError.reading(directory) { try FileManager.default.contentsOfDirectory(atPath: directory.path) }
            .filter { !$0.hasPrefix(".") }
        let report = SuiteReport(runID: directory.lastPathComponent, shard: shard, provenance: provenance, detection: detection,
                                 generation: generation, files: Array(Set(files + [SuiteReport.markdownFile, SuiteReport.jsonFile, RunPage.file])).sorted())
        try report.write(to: directory)
        return report
    }
}
