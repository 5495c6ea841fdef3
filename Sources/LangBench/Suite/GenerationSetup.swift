import Foundation
import LlamaBackend

/// Assembles and runs one generation run: the server, the detector, the reply pipeline and its
/// settings, from a plan. `generate` and `run` both go through it.
public struct GenerationSetup: Sendable {
    public var plan: GenerationPlan
    /// How the pipeline detects the message's language.
    public var detection: DetectionConfig
    public var factory: DetectorFactory
    public var server: ServerSource
    public var profile: ModelProfile
    public var directory: URL
    /// Where a started server's binary and model are found (`LANGBENCH_LLAMA_SERVER`, `LANGBENCH_MODEL`).
    public var environment: [String: String]

    public init(plan: GenerationPlan, detection: DetectionConfig = .seedArchitecture(), factory: DetectorFactory = DetectorFactory(),
                server: ServerSource = ServerSource(), profile: ModelProfile, directory: URL, environment: [String: String]) {
        self.plan = plan
        self.detection = detection
        self.factory = factory
        self.server = server
        self.profile = profile
        self.directory = directory
        self.environment = environment
    }

    /// How often a launched server that dies mid-run is restarted before the run stops (exit 69).
    public static let maxServerRestarts = 2

    /// Starts (or attaches to) the server, runs every item, writes the reports, and stops the server.
    public func run(corpus: Corpus, command: [String], resume: Bool,
                    progress: any ProgressObserving = SilentProgress()) async throws -> GenerationReport {
        let (job, server) = try await job(corpus: corpus, command: command, resume: resume)
        defer { server.stop() }
        return try await job.run(progress: progress)
    }

    /// The job and the server it talks to; the caller stops the server.
    public func job(corpus: Corpus, command: [String], resume: Bool) async throws -> (job: GenerationJob, server: LlamaServer) {
        let candidates = try detection.candidates.resolve(supported: profile.supportedLanguages)
        let detector = try await factory.make(detection.detector)
        try CandidateError.check(detection.candidates, detector: detector, config: detection.name)
        let bank = FallbackBank(try CorpusLoader().load([plan.bankPath]))
        let crisis = try CrisisCheck.load(plan.crisisPath)
        try ReportError.writing(directory) { try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true) }
        let server = try await self.server.open(profile: profile, slots: plan.concurrency, runDirectory: directory, environment: environment)
        let measured = server.client(requestTimeout: self.server.requestTimeout)
        let slowdown = try InjectedSlowdown.factor(environment: environment)
        let timed: any TextCompleting = slowdown.map { InjectedSlowdown(wrapping: measured, factor: $0) } ?? measured
        let client = CacheControlledBackend(timed, policy: plan.cachePolicy)
        let translator = LlamaTranslator(backend: client, prompts: PromptBuilder(templates: profile.prompts), sampling: profile.translationSampling)
        let pipeline = ReplyPipeline(profile: profile, backend: client, translator: translator, detector: detector, candidates: candidates,
                                     hints: detection.hints, packs: plan.packs, crisis: crisis, bank: bank,
                                     refuseUnsupported: plan.refuseUnsupported, seed: plan.seed,
                                     cachePolicy: plan.cachePolicy)
        var sampling = profile.sampling
        if let seed = plan.seed { sampling.seed = seed }
        let settings = GenerationReport.Settings(
            profile: profile.name, route: plan.route, sampling: sampling, translationSampling: profile.translationSampling,
            supportedLanguages: profile.supportedLanguages.map(\.identifier),
            detection: "\(detection.name) (\(detection.detector); candidates \(detection.candidates.description); hints \(detection.hintsDescription))",
            packs: plan.packs, concurrency: plan.concurrency, repeats: plan.repeats, warmup: plan.warmup,
            refuseUnsupported: plan.refuseUnsupported,
            server: await self.server.describe(server).merging(slowdown.map { [InjectedSlowdown.environmentKey: String($0)] } ?? [:]) { a, _ in a },
            cachePolicy: plan.cachePolicy)
        var runner = GenerationRunner(pipeline: pipeline, choice: plan.route, repeats: plan.repeats,
                                      concurrency: plan.concurrency, warmup: plan.warmup)
        runner.recovery = ServerRecovery(server: server, maxRestarts: Self.maxServerRestarts)
        var job = GenerationJob(corpus: corpus, runner: runner, settings: settings, directory: directory, command: command,
                                resume: resume, writeReplies: plan.writeReplies)
        job.calibrator = MachineCalibrator(backend: measured, threads: server.configuration?.threads)
        return (job, server)
    }
}
