import Support
import Checks
import Detection
import Foundation
import Generation
import Corpus
import Backend
import ByteIO

/// Assembles and runs one generation run: the server, the detector, the reply pipeline and its
/// settings, from a plan. `generate` and `run` both go through it.
package struct GenerationSetup: Sendable {
    package var plan: GenerationPlan
    /// How the pipeline detects the message's language: the reference config, whose records make every figure.
    package var detection: DetectionConfig
    /// The other configs the generation half runs, each item detected with each (`ServedFunnel`); a config named
    /// `oracle` takes the item's true language (`oracleConfig`).
    package var configs: [DetectionConfig] = []
    /// A second judge of served (`builtin` or `exec:<command>`; `JudgeAgreement`); nil: one judge.
    package var secondJudge: String?
    package var factory: DetectorFactory
    package var server: ServerSource
    package var profile: ModelProfile
    package var directory: URL
    /// Where a started server's binary and model are found (`LANGBENCH_LLAMA_SERVER`, `LANGBENCH_MODEL`).
    package var environment: [String: String]

    package init(plan: GenerationPlan, detection: DetectionConfig = .seedArchitecture(), factory: DetectorFactory = DetectorFactory(),
                server: ServerSource = ServerSource(), profile: ModelProfile, directory: URL, environment: [String: String]) {
        self.plan = plan
        self.detection = detection
        self.factory = factory
        self.server = server
        self.profile = profile
        self.directory = directory
        self.environment = environment
    }

    /// The config that detects nothing and takes the item's true language: what perfect detection would serve.
    package static let oracleConfig = DetectionConfig(name: ServedFunnel.oracle, detector: DetectorKind.oracle.spec)

    /// The configs `run` gives its generation half when bench.json names none: the seed's, unconstrained, the oracle.
    package static let defaultConfigNames = [DetectionConfig.seedArchitecture().name, "unconstrained", ServedFunnel.oracle]

    /// The configs named by `names` from `available` (the detection half's, then the three defaults, then the oracle), in
    /// that order; a name none of them has is refused naming it and `key`.
    package static func configs(named names: [String], available: [DetectionConfig], detector: String, key: String) throws -> [DetectionConfig] {
        let known = available + DetectionConfig.defaults(detector: detector) + [oracleConfig]
        return try names.map { name in
            guard let config = known.first(where: { $0.name == name }) else {
                var seen = Set<String>()
                let list = known.map(\.name).filter { seen.insert($0).inserted }.joined(separator: ", ")
                throw ConfigurationError.invalidValue(name: key, value: name, reason: "no detection config is named '\(name)' (known: \(list))")
            }
            return config
        }
    }

    /// Refuses configs that cannot run together: a repeated name, the oracle first (the reference detects; the oracle
    /// only says what that lost), or another config named `oracle` (the funnel measures detection against it).
    func checkConfigs() throws {
        try Self.check([detection] + configs)
    }

    /// `checkConfigs` of a reference config followed by the others (`all`), before any setup exists: a suite checks
    /// them before its detection half runs, so a refusal costs nothing.
    package static func check(_ all: [DetectionConfig]) throws {
        guard let detection = all.first else { return }
        if let repeated = all.enumerated().first(where: { index, config in all[..<index].contains { $0.name == config.name } })?.element {
            throw ConfigurationError.invalidValue(name: "configs", value: repeated.name, reason: "two detection configs are named '\(repeated.name)'")
        }
        if DetectorKind(detection.detector) == .oracle {
            throw ConfigurationError.invalidValue(name: "configs", value: detection.name,
                                                  reason: "the first config is the reference replies are detected with; the oracle can only follow it")
        }
        if let clash = all.first(where: { $0.name == ServedFunnel.oracle && DetectorKind($0.detector) != .oracle }) {
            throw ConfigurationError.invalidValue(name: "configs", value: clash.name,
                                                  reason: "'oracle' names the config that takes the item's true language; name this one otherwise")
        }
    }

    /// A config as the report describes it.
    static func describe(_ config: DetectionConfig) -> String {
        if DetectorKind(config.detector) == .oracle { return "\(config.name) (the item's true language)" }
        return "\(config.name) (\(config.detector); candidates \(config.candidates.description); hints \(config.hintsDescription))"
    }

    /// How often a launched server that dies mid-run is restarted before the run stops (exit 69).
    package static let maxServerRestarts = 2

    /// The generation corpus of `paths`, whole and in memory in file order, only `shard`'s items when given:
    /// what `generate` and `run` generate over. Whole because each item costs seconds of generation, so a
    /// corpus too large for memory is one no generation run could finish; detection, at microseconds an item,
    /// streams through the item stream instead (`DetectionJob.Items`).
    package static func corpus(_ paths: [String], loader: CorpusLoader, shard: Shard? = nil) throws -> Corpus {
        let corpus = try loader.load(paths)
        return shard?.apply(corpus) ?? corpus
    }

    /// Starts (or attaches to) the servers, runs every item, writes the reports, and stops the servers.
    package func run(corpus: Corpus, command: [String], resume: Bool,
                    progress: any ProgressObserving = SilentProgress()) async throws -> GenerationReport {
        let (job, servers) = try await job(corpus: corpus, command: command, resume: resume)
        defer { servers.forEach { $0.stop() } }
        do {
            let report = try await job.run(progress: progress)
            await job.stopTranslators()
            return report
        } catch {
            await job.stopTranslators()
            throw error
        }
    }

    /// The variants this run generates with: the variants file's, or the profile alone.
    package func variants() throws -> [GenerationVariant] {
        try plan.variantsPath.map { try VariantSet.load($0, base: profile) } ?? VariantSet.single(profile)
    }

    /// The job and the servers it talks to (one per distinct model and server settings, the first one
    /// the reference variant's, which also calibrates the machine); the caller stops the servers.
    package func job(corpus: Corpus, command: [String], resume: Bool) async throws -> (job: GenerationJob, servers: [LlamaServer]) {
        let variants = try variants()
        let named = plan.variantsPath != nil
        try checkConfigs()
        let detector = try await factory.make(detection.detector)
        try CandidateError.check(detection.candidates, detector: detector, config: detection.name)
        // Each other config's detector (one per detector name), the oracle's none; every config is judged by the reference's.
        var detectors: [String: any LanguageIdentifying] = [detection.detector: detector]
        var judge2: (any LanguageIdentifying)?
        if let secondJudge { judge2 = try await factory.make(secondJudge) }
        for config in configs where DetectorKind(config.detector) != .oracle {
            if detectors[config.detector] == nil { detectors[config.detector] = try await factory.make(config.detector) }
            try CandidateError.check(config.candidates, detector: detectors[config.detector]!, config: config.name)
        }
        let references = try plan.referencesPath.map { try TranslationReferences.load($0, items: corpus.shard == nil ? Set(corpus.items.map(\.id)) : nil) }
        let lostBelow = try references.map { _ in try Thresholds.named(plan.thresholds).translationLostChrF }
        let bank = FallbackBank(try CorpusLoader().load([plan.bankPath]))
        let crisis = try CrisisCheck.load(plan.crisisPath)
        let keys = variants.map(\.serverKey).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        if server.url != nil && keys.count > 1 {
            throw ConfigurationError.invalidValue(name: "server-url", value: server.url!.absoluteString,
                                                  reason: "the variants use \(keys.count) different models or server settings; drop --server-url so LangBench starts one server for each")
        }
        // Every model is checked before any server starts: a missing file stops the run with nothing started.
        if server.url == nil {
            for (index, variant) in variants.enumerated() {
                let path = ServerSource.modelPath(for: variant.profile, environment: environment)
                guard FileManager.default.fileExists(atPath: path) else {
                    if named { throw VariantModelMissing(variant: variant.name, index: index, path: path) }
                    throw BackendError.modelNotFound(path: path)
                }
            }
        }
        try ReportError.writing(directory) { try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true) }
        // The engines the pivots translate with, one per distinct spec, started before any model server.
        let translators = try await TranslationEngines.open(Set(variants.map { $0.translator ?? plan.translator }), directory: directory,
                                                            environment: environment)
        var servers: [String: LlamaServer] = [:]
        // A pool's servers in `--server-url` order, nil where one did not answer at the start (its items go to
        // the others); the first that did is the reference `servers` holds under the one server key.
        var members: [LlamaServer?] = [], attachFailures: [String?] = []
        do {
            if server.isPool {
                (members, attachFailures) = try await openPool(profile: variants[0].profile, resume: resume)
                servers[keys[0]] = members.compactMap { $0 }.first
                if let mismatch = PoolModelMismatch.check(try await poolModels(members)) { throw mismatch }
            } else {
                for (index, key) in keys.enumerated() {
                    let variant = variants.first { $0.serverKey == key }!
                    servers[key] = try await server.open(profile: variant.profile, slots: plan.concurrency, runDirectory: directory, environment: environment,
                                                         model: ServerSource.modelPath(for: variant.profile, environment: environment),
                                                         logName: index == 0 ? "llama-server.log" : "llama-server-\(index + 1).log")
                }
            }
        } catch {
            (Array(servers.values) + members.compactMap { $0 }).forEach { $0.stop() }
            await translators.stop()
            throw error
        }
        let slowdown = try InjectedSlowdown.factor(environment: environment)
        let slowAbove = try InjectedSlowdown.aboveMs(environment: environment)
        let calibrationLoad = try InjectedCalibrationLoad.from(environment: environment)
        let reference = servers[keys[0]]!.backend(requestTimeout: server.requestTimeout)
        let lane = { (variant: GenerationVariant, server: LlamaServer) throws -> GenerationRunner.Lane in
            var reference = try self.pipeline(variant.profile, server: server, slowdown: slowdown, config: self.detection, detector: detector,
                                              crisis: crisis, bank: bank, translator: translators.engines[variant.translator ?? self.plan.translator],
                                              packs: translators.packs(variant.translator ?? self.plan.translator, otherwise: self.plan.packs))
            reference.secondJudge = judge2
            reference.references = references?.byItem ?? [:]
            // A variant that changes only the translator runs the pivot with the reference config alone: its direct replies
            // and other configs would repeat the reference variant's requests (the funnel is the reference variant's).
            let translatorOnly = variant != variants[0] && variant.profile == variants[0].profile
                && (variant.translator ?? self.plan.translator) != (variants[0].translator ?? self.plan.translator)
            if translatorOnly { return GenerationRunner.Lane(name: variant.name, pipeline: reference, pivotOnly: true) }
            return GenerationRunner.Lane(name: named ? variant.name : nil, pipeline: reference, configs: try self.configs.map { config in
                var pipeline = reference
                pipeline.judge = detector
                if DetectorKind(config.detector) == .oracle {
                    pipeline.oracle = true
                    pipeline.candidates = nil
                    pipeline.hints = [:]
                } else {
                    pipeline.detector = detectors[config.detector]!
                    pipeline.candidates = try config.resolvedCandidates(supported: variant.profile.supportedLanguages)
                    pipeline.hints = config.hints
                }
                return GenerationRunner.Lane.Config(name: config.name, pipeline: pipeline)
            })
        }
        let lanes = try variants.map { try lane($0, servers[$0.serverKey]!) }
        var sampling = profile.sampling
        if let seed = plan.seed { sampling.seed = seed }
        var settings = GenerationReport.Settings(
            profile: profile.name, route: plan.route, sampling: sampling, translationSampling: profile.translationSampling,
            supportedLanguages: profile.supportedLanguages.map(\.identifier),
            detection: Self.describe(detection),
            packs: translators.packs(variants[0].translator ?? plan.translator, otherwise: plan.packs), concurrency: plan.concurrency, repeats: plan.repeats, warmup: plan.warmup,
            refuseUnsupported: plan.refuseUnsupported,
            server: await self.server.describe(servers[keys[0]]!).merging(slowdown.map { [InjectedSlowdown.environmentKey: String($0)] } ?? [:]) { a, _ in a }
                .merging(slowAbove.map { [InjectedSlowdown.aboveKey: String($0)] } ?? [:]) { a, _ in a }
                .merging(calibrationLoad.map { [InjectedCalibrationLoad.environmentKey: String($0.factor)] } ?? [:]) { a, _ in a },
            cachePolicy: plan.cachePolicy,
            variants: named ? try variants.map { variant in
                try GenerationReport.Settings.Variant(variant, serverIndex: keys.firstIndex(of: variant.serverKey)! + 1,
                                                      translator: variant.translator.map { translators.engines[$0]?.engine ?? .llm })
            } : nil)
        settings.translator = translators.engines[variants[0].translator ?? plan.translator]?.engine
        settings.references = try references.map { "\(URL(fileURLWithPath: $0.path).lastPathComponent) (SHA-256 \(try SHA256.hex(fileAt: URL(fileURLWithPath: $0.path)).prefix(12)))" }
        settings.translationLostChrF = lostBelow
        settings.judge = try factory.judge(detection.detector)
        settings.secondJudge = try secondJudge.map { try factory.judge($0) }
        settings.configs = configs.isEmpty ? nil : ([detection] + configs).map(Self.describe)
        var runner = GenerationRunner(lanes: lanes, choice: plan.route, repeats: plan.repeats, concurrency: plan.concurrency, warmup: plan.warmup)
        // One recovery per server, shared by the variants that use it.
        let recoveries = servers.mapValues { ServerRecovery(server: $0, maxRestarts: Self.maxServerRestarts) }
        runner.recoveries = variants.map { recoveries[$0.serverKey]! }
        var job = GenerationJob(corpus: corpus, runner: runner, settings: settings, directory: directory, command: command,
                                resume: resume, writeReplies: plan.writeReplies)
        job.stopTranslators = { [translators] in await translators.stop() }
        // Calibration reads the server's own timings, which only llama-server's native API always sends.
        if servers[keys[0]]!.openAI == nil {
            job.calibrator = MachineCalibrator(backend: reference, threads: servers[keys[0]]!.configuration?.threads)
            job.calibrator?.injectedLoad = calibrationLoad
        }
        if server.isPool {
            let referenceLanes = lanes, referenceRecoveries = runner.recoveries
            job.runner.pool = try members.enumerated().map { index, member in
                guard let member else {
                    // Never dealt to (it is failed before the dealing): the reference lanes only fill the place.
                    return PoolMember(label: PoolMember.label(index), url: ServerSource.redacted(server.urls[index]), lanes: referenceLanes,
                                      recoveries: referenceRecoveries, calibrator: nil, attachFailure: attachFailures[index])
                }
                let lanes = try variants.map { try lane($0, member) }
                let recovery = ServerRecovery(server: member, maxRestarts: 0)
                var calibrator = member.openAI == nil
                    ? MachineCalibrator(backend: member.backend(requestTimeout: server.requestTimeout), threads: member.configuration?.threads) : nil
                calibrator?.injectedLoad = calibrationLoad
                return PoolMember(label: PoolMember.label(index), url: ServerSource.redacted(server.urls[index]), lanes: lanes,
                                  recoveries: lanes.map { _ in recovery }, calibrator: calibrator)
            }
            job.calibrator = nil
            return (job, members.compactMap { $0 })
        }
        return (job, keys.map { servers[$0]! })
    }

    /// Attaches to every server of the pool; one that does not answer is nil (failed from the start), with why
    /// (`PoolFailure`) in `failures`. When none answers, the run stops as if every server had died mid-run
    /// (exit 69; `--resume` continues it).
    private func openPool(profile: ModelProfile, resume: Bool) async throws -> (members: [LlamaServer?], failures: [String?]) {
        var members: [LlamaServer?] = [], failures: [String?] = []
        for url in server.urls {
            do {
                members.append(try await server.open(profile: profile, slots: plan.concurrency, runDirectory: directory, environment: environment, url: url))
                failures.append(nil)
            } catch let error as BackendError {
                members.append(nil)
                failures.append(PoolFailure.reason(.attach, error))
            }
        }
        guard members.contains(where: { $0 != nil }) else {
            let kept = resume ? try GenerationStore.records(in: directory).count : 0
            throw GenerationStopped(cause: .serverLost("no server of the pool answered at the start ("
                                                       + server.urls.indices.map(PoolMember.label).joined(separator: ", ") + "); start them again"),
                                    kept: kept, directory: directory)
        }
        return (members, failures)
    }

    /// Each answering server's label and the model it serves: an OpenAI-compatible one's settled model, a
    /// llama-server's `/props` alias or file name. A llama-server whose `/props` fails stops the run
    /// (`PoolModelUnknown`, exit 69): the pool's one-model check cannot cover it.
    private func poolModels(_ members: [LlamaServer?]) async throws -> [(label: String, model: String)] {
        var models: [(label: String, model: String)] = []
        for (index, member) in members.enumerated() {
            guard let member else { continue }
            if let endpoint = member.openAI {
                models.append((PoolMember.label(index), endpoint.model ?? ""))
                continue
            }
            do { models.append((PoolMember.label(index), try await member.client(requestTimeout: server.requestTimeout).props().modelName)) } catch {
                throw PoolModelUnknown(label: PoolMember.label(index), url: ServerSource.redacted(server.urls[index]), kind: PoolFailure.kind(of: error))
            }
        }
        return models
    }

    /// One variant's reply pipeline on its server.
    private func pipeline(_ profile: ModelProfile, server: LlamaServer, slowdown: Double?, config detection: DetectionConfig,
                          detector: any LanguageIdentifying, crisis: CrisisCheck, bank: FallbackBank, translator engine: (any Translating)?,
                          packs: LanguagePacks) throws -> ReplyPipeline {
        let candidates = try detection.resolvedCandidates(supported: profile.supportedLanguages)
        let measured = server.backend(requestTimeout: self.server.requestTimeout)
        let above = try InjectedSlowdown.aboveMs(environment: environment)
        let timed: any TextCompleting = slowdown.map { InjectedSlowdown(wrapping: measured, factor: $0, aboveMs: above) } ?? measured
        let client = CacheControlledBackend(timed, policy: plan.cachePolicy)
        let translator = engine ?? LlamaTranslator(backend: client, prompts: PromptBuilder(templates: profile.prompts), sampling: profile.translationSampling)
        return ReplyPipeline(profile: profile, backend: client, translator: translator, detector: detector, candidates: candidates,
                             hints: detection.hints, packs: packs, crisis: crisis, bank: bank,
                             refuseUnsupported: plan.refuseUnsupported, seed: plan.seed, cachePolicy: plan.cachePolicy)
    }
}
