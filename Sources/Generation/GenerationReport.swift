import Support
import Checks
import Foundation
import Corpus
import Provenance
import ByteIO

/// Everything `generate` measured: the schema behind generation-items.csv, generation-summary.csv,
/// generation.md and generation.json.
package struct GenerationReport: Sendable, Codable {
    /// 3: generation.json leaves the records out (they are in the records log beside it); 2 carried them.
    package static let schemaVersion = 3

    /// The settings a run used, echoed so two runs can be checked for comparability.
    package struct Settings: Sendable, Hashable, Codable {
        package var profile: String
        package var route: RouteChoice
        package var sampling: ModelProfile.Sampling
        package var translationSampling: ModelProfile.Sampling
        package var supportedLanguages: [String]
        package var detection: String
        package var packs: LanguagePacks
        package var concurrency: Int
        package var repeats: Int
        package var warmup: Int
        package var refuseUnsupported: Bool
        package var server: [String: String]
        /// The cache state every timed request starts from (it decides the `cache_prompt` sent).
        package var cachePolicy: CachePolicy
        /// The variants of a run with a variants file, in the order declared (the first is the reference); nil without one.
        package var variants: [Variant]?
        /// What judged the replies' language for "served" (`builtin recognizer <model hash>`); nil in reports before it was recorded.
        package var judge: String?
        /// The second judge of served (`JudgeAgreement`), described like `judge`; nil with one judge.
        package var secondJudge: String?
        /// Every detection config the run detected with, described, the reference (`detection`) first; nil when it used one.
        package var configs: [String]?
        /// The engine the reference variant's pivot translated with; nil in reports before it was recorded (the model).
        package var translator: TranslationEngine?
        /// The references the translate-in was scored against (`file (SHA-256 prefix)`); nil without.
        package var references: String?
        /// chrF below which a scored translate-in is "lost: translation" (the suite's thresholds); nil: the default, 20.
        package var translationLostChrF: Double?

        /// The lost-in-translation threshold the run's funnel used.
        package var lostBelowChrF: Double { translationLostChrF ?? Thresholds.defaultTranslationLostChrF }

        /// The configs' names, the reference first (one name when the run used one config).
        package var configNames: [String] {
            (configs ?? [detection]).map { $0.components(separatedBy: " (").first ?? $0 }
        }

        /// What a variant was, echoed so runs are compared variant by variant and a changed variant is named.
        package struct Variant: Sendable, Hashable, Codable {
            package var name: String
            package var description: String
            /// The model file it generated with and which of the run's servers (1 = `llama-server.log`).
            package var model: String
            package var server: Int
            /// SHA-256 of the variant's resolved profile (prompts, sampling, server) and its own translator: equal
            /// fingerprints, equal variants.
            package var fingerprint: String
            /// The engine its pivot translated with, when it named its own; nil: the run's (`Settings.translator`).
            package var translator: TranslationEngine?

            package init(name: String, description: String, model: String, server: Int, fingerprint: String) {
                self.name = name
                self.description = description
                self.model = model
                self.server = server
                self.fingerprint = fingerprint
            }

            package init(_ variant: GenerationVariant, serverIndex: Int, translator: TranslationEngine? = nil) throws {
                name = variant.name
                description = variant.description
                model = variant.profile.model.file
                server = serverIndex
                self.translator = translator
                let encoder = JSONEncoder()
                encoder.outputFormatting = .sortedKeys
                fingerprint = SHA256.hex(try encoder.encode(variant.profile) + Data((variant.translator.map { "|translator=\($0)" } ?? "").utf8))
            }
        }

        package init(profile: String, route: RouteChoice, sampling: ModelProfile.Sampling, translationSampling: ModelProfile.Sampling,
                    supportedLanguages: [String], detection: String, packs: LanguagePacks, concurrency: Int, repeats: Int, warmup: Int,
                    refuseUnsupported: Bool, server: [String: String], cachePolicy: CachePolicy = .cold, variants: [Variant]? = nil) {
            self.profile = profile
            self.route = route
            self.sampling = sampling
            self.translationSampling = translationSampling
            self.supportedLanguages = supportedLanguages
            self.detection = detection
            self.packs = packs
            self.concurrency = concurrency
            self.repeats = repeats
            self.warmup = warmup
            self.refuseUnsupported = refuseUnsupported
            self.server = server
            self.cachePolicy = cachePolicy
            self.variants = variants
            self.sampling.cachePrompt = cachePolicy.cachePrompt
            self.translationSampling.cachePrompt = cachePolicy.cachePrompt
        }

        enum CodingKeys: String, CodingKey {
            case profile, route, sampling, translationSampling = "translation_sampling", supportedLanguages = "supported_languages"
            case detection, packs, concurrency, repeats, warmup, refuseUnsupported = "refuse_unsupported", server, cachePolicy = "cache_policy", variants
            case judge, configs, secondJudge = "second_judge", translator, references, translationLostChrF = "translation_lost_chrf"
        }

        /// The detection config's name (`constrained+priors`), without its description.
        package var detectionName: String {
            detection.components(separatedBy: " (").first ?? detection
        }
    }

    package var schemaVersion: Int
    package var provenance: Provenance
    package var settings: Settings
    /// Crisis-flagged records: answered with the fixed safe reply and left out of every rate's denominator.
    package var crisisRecords: Int
    package var cache: CacheCheck
    /// The English A/A control: nil unless English items took both routes.
    package var control: ControlCheck?
    /// Whether the run's machine calibration agrees with itself: nil without a calibration.
    package var calibrationConsistency: CalibrationConsistency?
    /// Whether the machine stayed steady while the run generated (`MachineSteadiness`); nil in reports written before the check.
    package var machineSteady: Bool?
    package var machineSteadiness: MachineSteadiness?
    package var summary: [SummaryRow]
    package var fallbacks: [FallbackRow]
    package var ratios: [PairedRatio]
    package var served: [ServedRow]
    package var warmupRuns: Int
    /// Every record of the reference config, in canonical order: what every figure but the funnel is made of. Not
    /// encoded: generation.json's records are the records log beside it, which `GenerationOutput.read` reads them
    /// back from (`GenerationStore`).
    package var records: [GenerationRecord] = []
    /// The records of the run's other detection configs (`Settings.configs`), in canonical order: the funnel's.
    package var configRecords: [GenerationRecord] = []
    /// Every record the run's log holds: the reference config's, then the others'.
    package var allRecords: [GenerationRecord] { records + configRecords }
    /// Who is served and where the others were lost, per detection config; nil when the run used one config.
    package var funnel: ServedFunnel?
    /// The two judges' agreement on served; nil with one judge.
    package var judges: JudgeAgreement?
    package var definitions: [String: String]
    /// A run with variants: every variant's figures and its paired checks against the reference (the first).
    /// The run's own summary, fallbacks, served, ratios and control are then the reference variant's.
    package var variants: [VariantSection]?
    /// A run over a pool of servers: latency per server and whether it may be pooled; nil on one server.
    package var pool: PoolLatency?
    /// Per server (`server-1`, …, or `server` on one), the records whose server sent text past a stop string
    /// (their replies were cut there); nil when every server honoured `stop`.
    package var ignoredStop: [String: Int]?
    /// Records from whose server text the API key was redacted; nil when none.
    package var secretsRedacted: Int?
    /// Records with a server-reported token count no request could have (left unknown); nil when none.
    package var invalidCounts: Int?

    enum CodingKeys: String, CodingKey {
        case schemaVersion = "schema_version", provenance, settings, crisisRecords = "crisis_records", cache, control, summary, fallbacks
        case calibrationConsistency = "calibration_consistency", machineSteady = "machine_steady", machineSteadiness = "machine_steadiness"
        case ratios, served = "served_in_own_language", warmupRuns = "warmup_runs", definitions, variants, pool
        case ignoredStop = "ignored_stop", secretsRedacted = "secrets_redacted", invalidCounts = "invalid_counts", funnel, judges
    }

    package static let metricDefinitions: [String: String] = [
        "total_ms": "end to end, from the start of detection to the last token of the reply the user reads (all stages, client clock; cache priming excluded)",
        "ttft_ms": "time to first token the user sees: detection + TTFT of generation (direct), or everything before the translate-out stage + its TTFT (pivot); TTFT = first non-empty streamed content − request sent",
        "tpot_ms": "time per output token after the first, (E2E − TTFT) / (N − 1): per record over the reply the user reads, per stage over that request",
        "ms_per_token": "total_ms / completion tokens of every request of the record (translations included): end-to-end cost per generated token",
        "ms_per_reply_token": "total_ms / completion tokens of the reply the person reads (the translated reply on the pivot): end-to-end cost per token they get",
        "latency": "mean and percentiles (type 7) over model replies; p50/p95 intervals: order statistics (distribution-free, exact coverage at least 95%), shown from n = 10",
        "fallback_rate": "fallback replies / records, crisis-flagged items excluded everywhere (counted separately), 95% Wilson interval",
        "fidelity": "model replies whose language matches the DETECTED language / replies checked; a mismatch becomes a wrong-output-language fallback",
        "served_in_own_language": "the reply came from the model, is not degenerate, AND its language identified over every language the detector knows (no candidates, no hints) is the item's true language (corpus label) / records (crisis excluded), 95% Wilson interval; failures split into degenerate-output, misdetected (detection wrong: decides everything after), wrong-output-language, or the fallback reason",
        "degenerate_output": DegenerateOutput.definition,
        "tokens_per_second": "generated tokens after the first / time between first and last token event (client), as the server's predicted_per_second",
        "pivot_direct_ratio": "per item with a model reply on both routes (same repeat), pivot / direct; the median over items, its order-statistic 95% interval (exact coverage at least 95%) from 10 pairs; the all slice leaves out the English control",
        "control": "English items take the same prompt on both routes (the pivot is direct for English): an A/A pair inside every run whose total_ms ratio must contain 1.0, else order, cache or drift biased the run; a consistent control rules out only a bias beyond its interval's reach (±x%)",
        "route_order": "per item, seeded: half of each language's items run direct first, half pivot first; every repeat flips the order",
        "cache_policy": "cold: cache_prompt false, each request evaluates its whole prompt (checked with the server's prompt_n and cache_n); warm-prefix: the instruction prefix is cached by an untimed request before each timed one",
        "warmup": "requests made before measurement to load the model; excluded from every figure and counted in warmup_runs",
    ]

    /// The report of `records`, every config's: those of the reference config (config nil) make every figure, the
    /// others only the funnel.
    package init(records all: [GenerationRecord], settings: Settings, warmupRuns: Int, provenance: Provenance) {
        let records = all.filter { $0.config == nil }
        schemaVersion = Self.schemaVersion
        self.provenance = provenance
        self.settings = settings
        self.records = records
        configRecords = all.filter { $0.config != nil }
        funnel = ServedFunnel(configs: settings.configNames, reference: records, others: configRecords, variant: settings.variants?.first?.name,
                              lostBelow: settings.lostBelowChrF)
        judges = JudgeAgreement(records: records, first: settings.judge, second: settings.secondJudge, variant: settings.variants?.first?.name)
        self.warmupRuns = warmupRuns
        definitions = Self.metricDefinitions
        let measured = records.filter { $0.fallbackReason != .crisisProtocol }
        crisisRecords = records.count - measured.count
        cache = CacheCheck(policy: settings.cachePolicy, stages: measured.flatMap(\.stages))
        variants = settings.variants.map { VariantSection.all($0, records: records, settings: settings, provenance: provenance) }
        let reference = settings.variants?.first?.name
        let measuredReference = measured.filter { $0.variant == reference }
        var summary: [SummaryRow] = []
        var fallbacks: [FallbackRow] = []
        var served: [ServedRow] = []
        for route in Route.allCases {
            let own = measuredReference.filter { $0.route == route }
            guard !own.isEmpty else { continue }
            summary.append(SummaryRow(route, "all", own))
            served.append(ServedRow(route, lang: "all", own))
            for (lang, subset) in Dictionary(grouping: own, by: \.lang).sorted(by: { $0.key < $1.key }) {
                summary.append(SummaryRow(route, SliceKey.lang("\(lang)").description, subset))
                served.append(ServedRow(route, lang: lang.identifier, subset))
            }
            for reason in FallbackReason.allCases where reason != .crisisProtocol {
                let count = own.filter { $0.fallbackReason == reason }.count
                guard count > 0 else { continue }
                fallbacks.append(FallbackRow(route: route, reason: reason, count: count, n: own.count, rate: Double(count) / Double(own.count),
                                             ci: Statistics.wilson(successes: count, trials: own.count)))
            }
        }
        self.summary = summary
        self.fallbacks = fallbacks
        self.served = served
        ratios = PairedRatio.all(measuredReference)
        control = ControlCheck(measuredReference)
        calibrationConsistency = provenance.calibration.map { CalibrationConsistency($0) }
        let steadiness = MachineSteadiness(calibration: provenance.calibration, records: measured)
        machineSteadiness = steadiness
        machineSteady = steadiness.isSteady
        pool = PoolLatency(servers: provenance.servers, records: measuredReference)
        let runOn = Dictionary(grouping: records.filter { $0.ignoredStop == true }, by: { $0.server ?? "server" }).mapValues(\.count)
        ignoredStop = runOn.isEmpty ? nil : runOn
        func count(_ flag: KeyPath<GenerationRecord, Bool?>) -> Int? {
            let n = records.filter { $0[keyPath: flag] == true }.count
            return n == 0 ? nil : n
        }
        secretsRedacted = count(\.secretRedacted)
        invalidCounts = count(\.invalidCounts)
    }

    /// The records the report counts: the crisis-flagged ones and every route's `all` row (of each variant
    /// in a run with variants, whose own rows are the reference's).
    var countedRecords: Int {
        let rows = variants.flatMap { $0.isEmpty ? nil : $0.flatMap(\.summary) } ?? summary
        return crisisRecords + rows.filter { $0.slice == "all" }.map(\.n).reduce(0, +) + (funnel?.records ?? 0)
    }

    package func summary(route: Route, slice: String = "all") -> SummaryRow? {
        summary.first { $0.route == route && $0.slice == slice }
    }

    package func ratio(_ metric: PairedRatio.Metric, slice: String = "all") -> PairedRatio? {
        ratios.first { $0.metric == metric && $0.slice == slice }
    }
}
