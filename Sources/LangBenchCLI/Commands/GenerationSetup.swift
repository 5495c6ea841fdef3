import Foundation
import LangBench
import LlamaBackend

/// Assembles a generation job from options: server, detector, pipeline, settings. Shared by
/// `generate` and `run`.
struct GenerationSetup {
    var generation: GenerationOptions
    var detectors: DetectorOptions
    var backend: BackendOptions
    var profile: ModelProfile
    var directory: URL
    var environment: [String: String]
    /// Pack states from a suite config; nil reads --packs or the device default.
    var packs: LanguagePacks? = nil

    /// The detection config the pipeline uses: flags or the file's first config, else constrained+priors.
    func detectionConfig() throws -> DetectionConfig {
        if detectors.configsPath != nil || detectors.candidates != nil || detectors.hints != nil {
            return try detectors.configs()[0]
        }
        return DetectionConfig.defaults(detector: detectors.detector)[2]
    }

    func job(corpus: Corpus, command: [String], resume: Bool) async throws -> (job: GenerationJob, server: LlamaServer) {
        let config = try detectionConfig()
        let candidates = try config.candidates.resolve(supported: profile.supportedLanguages)
        let detector = try await detectors.factory.make(config.detector)
        let bank = FallbackBank(try CorpusLoader().load([generation.bankPath]))
        let crisis = try CrisisCheck.load(generation.crisisPath)
        let packs = try self.packs ?? generation.packs()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let server = try await backend.open(profile: profile, slots: generation.concurrency, runDirectory: directory, environment: environment)
        let measured = server.client(requestTimeout: backend.requestTimeout)
        let slowdown = try InjectedSlowdown.factor(environment: environment)
        let client: any TextCompleting = slowdown.map { InjectedSlowdown(wrapping: measured, factor: $0) } ?? measured
        let translator = LlamaTranslator(backend: client, prompts: PromptBuilder(templates: profile.prompts), sampling: profile.translationSampling)
        let pipeline = ReplyPipeline(profile: profile, backend: client, translator: translator, detector: detector, candidates: candidates,
                                     hints: config.hints, packs: packs, crisis: crisis, bank: bank,
                                     refuseUnsupported: generation.refuseUnsupported, seed: generation.seed)
        var sampling = profile.sampling
        if let seed = generation.seed { sampling.seed = seed }
        let settings = GenerationReport.Settings(
            profile: profile.name, route: generation.route, sampling: sampling, translationSampling: profile.translationSampling,
            supportedLanguages: profile.supportedLanguages.map(\.identifier),
            detection: "\(config.name) (\(config.detector); candidates \(config.candidates.description); hints \(config.hintsDescription))",
            packs: packs, concurrency: generation.concurrency, repeats: generation.repeats, warmup: generation.warmup,
            refuseUnsupported: generation.refuseUnsupported,
            server: await BackendOptions.describe(server, timeout: backend.requestTimeout).merging(slowdown.map { [InjectedSlowdown.environmentKey: String($0)] } ?? [:]) { a, _ in a })
        let runner = GenerationRunner(pipeline: pipeline, choice: generation.route, repeats: generation.repeats,
                                      concurrency: generation.concurrency, warmup: generation.warmup)
        var job = GenerationJob(corpus: corpus, runner: runner, settings: settings, directory: directory, command: command,
                                resume: resume, writeReplies: generation.writeReplies)
        job.calibrator = MachineCalibrator(backend: measured, threads: server.configuration?.threads)
        return (job, server)
    }
}
