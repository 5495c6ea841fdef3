import Support
import Checks
import Detection
import Generation

/// `bench.json`: what `langbench run` measures — a detection half and a generation half, each optional.
package struct BenchConfig: Sendable, Decodable {
    /// The detection half.
    package struct Detection: Sendable, Decodable {
        package var corpora: [String]
        /// Corpora built at set-up (the outside corpus, `Corpora/outside/outside.tsv`): read like `corpora` when there; a missing one
        /// is said on stderr and in the reports, and the run goes on without it.
        package var optionalCorpora: [String]
        /// Nil: the three default configs.
        package var configs: [DetectionConfig]?
        /// The detector of the default configs and of configs that name none.
        package var detector: String

        package init(from decoder: Decoder) throws {
            try StrictJSON.rejectUnknownKeys(in: decoder, allowed: ["corpora", "optional_corpora", "configs", "detector", "sweep"])
            let container = try decoder.container(keyedBy: StrictJSON.AnyKey.self)
            corpora = try container.decode([String].self, forKey: .init(stringValue: "corpora"))
            optionalCorpora = try container.decodeIfPresent([String].self, forKey: .init(stringValue: "optional_corpora")) ?? []
            var list = try container.decodeIfPresent(DetectionConfigList.self, forKey: .init(stringValue: "configs"))
            let named = try container.decodeIfPresent(String.self, forKey: .init(stringValue: "detector")).map(Redaction.label(ofCommand:))
            // A sweep's configs come after the configs (the three defaults when none are given), on the half's detector.
            if let sweep = try container.decodeIfPresent(DetectionSweep.self, forKey: .init(stringValue: "sweep")) {
                let base = list ?? DetectionConfigList(configs: DetectionConfig.defaults(), namesDetector: [false, false, false])
                list = base.appending(sweep.configs(detector: DetectorKind.builtin.spec))
            }
            let conflict = named.flatMap { list?.conflict(with: $0) }
            try StrictJSON.check(conflict == nil, "configs", in: decoder, "config '\(conflict?.name ?? "")' names detector \(conflict?.detector ?? ""), "
                                 + "but detection.detector is \(named ?? ""); drop one (detection.detector is the detector of configs that name none)")
            detector = named ?? DetectorKind.builtin.spec
            configs = list?.defaulting(to: detector)
            try StrictJSON.check(!corpora.isEmpty, "corpora", in: decoder, "must name at least one corpus")
            try StrictJSON.check(configs.map { !$0.isEmpty } ?? true, "configs", in: decoder, "must hold at least one config (or leave it out for the defaults)")
            let names = configs?.map(\.name) ?? []
            let repeated = names.first { name in names.filter { $0 == name }.count > 1 }
            try StrictJSON.check(repeated == nil, "configs", in: decoder, "config name '\(repeated ?? "")' is used twice (a sweep's configs are named sweep-<set>)")
        }
    }

    /// The generation half.
    package struct Generation: Sendable, Decodable {
        package var corpora: [String]
        package var profile: String
        package var route: RouteChoice
        package var repeats: Int
        package var concurrency: Int
        package var warmup: Int
        package var seed: Int?
        package var packs: LanguagePacks?
        package var translator: TranslatorSpec
        package var references: String?
        /// A thresholds preset or file (the one `compare` is given): its `translation_lost_chrf` is the funnel's.
        package var thresholds: String?
        package var refuseUnsupported: Bool
        package var cachePolicy: CachePolicy
        package var variants: String?
        /// The detection configs replies are detected with, by name (the detection half's, the three defaults, or `oracle`);
        /// the first is the reference every figure but the served funnel is made of. Nil: `GenerationSetup.defaultConfigNames`.
        package var configs: [String]?
        /// A second judge of served (`builtin` or `exec:<command>`, the command run as `detection.detector`'s is).
        package var judge: String?
        /// Whether `profile` is the tool's default (not named in the file, so not read relative to it).
        private var profileIsDefault: Bool

        package init(from decoder: Decoder) throws {
            let keys = ["corpora", "profile", "route", "repeat", "concurrency", "warmup", "seed", "packs", "refuse_unsupported", "cache_policy",
                        "variants", "configs", "judge", "translator", "references", "thresholds"]
            try StrictJSON.rejectUnknownKeys(in: decoder, allowed: keys)
            let c = try decoder.container(keyedBy: StrictJSON.AnyKey.self)
            func key(_ name: String) -> StrictJSON.AnyKey { .init(stringValue: name) }
            let defaults = GenerationPlan()
            corpora = try c.decode([String].self, forKey: key("corpora"))
            let named = try c.decodeIfPresent(String.self, forKey: key("profile"))
            profile = named ?? ModelProfile.defaultPath
            profileIsDefault = named == nil
            route = try c.decodeIfPresent(RouteChoice.self, forKey: key("route")) ?? defaults.route
            repeats = try c.decodeIfPresent(Int.self, forKey: key("repeat")) ?? defaults.repeats
            concurrency = try c.decodeIfPresent(Int.self, forKey: key("concurrency")) ?? defaults.concurrency
            warmup = try c.decodeIfPresent(Int.self, forKey: key("warmup")) ?? defaults.warmup
            seed = try c.decodeIfPresent(Int.self, forKey: key("seed"))
            packs = try c.decodeIfPresent(LanguagePacks.self, forKey: key("packs"))
            references = try c.decodeIfPresent(String.self, forKey: key("references"))
            thresholds = try c.decodeIfPresent(String.self, forKey: key("thresholds"))
            let translatorValue = try c.decodeIfPresent(String.self, forKey: key("translator"))
            do { translator = try translatorValue.map { try TranslatorSpec($0, key: "translator") } ?? defaults.translator } catch let error as ConfigurationError {
                if case .invalidValue(_, _, let reason) = error { try StrictJSON.check(false, "translator", in: decoder, reason) }
                throw error
            }
            refuseUnsupported = try c.decodeIfPresent(Bool.self, forKey: key("refuse_unsupported")) ?? defaults.refuseUnsupported
            cachePolicy = try c.decodeIfPresent(CachePolicy.self, forKey: key("cache_policy")) ?? defaults.cachePolicy
            variants = try c.decodeIfPresent(String.self, forKey: key("variants"))
            configs = try c.decodeIfPresent([String].self, forKey: key("configs"))
            judge = try c.decodeIfPresent(String.self, forKey: key("judge")).map(Redaction.label(ofCommand:))
            try StrictJSON.check(judge.map { DetectorKind($0)?.canJudge == true } ?? true, "judge", in: decoder,
                                 "must be builtin or exec:<command>, not '\(judge ?? "")'")
            try StrictJSON.check(configs.map { !$0.isEmpty } ?? true, "configs", in: decoder, "must name at least one detection config (or leave it out for "
                                 + GenerationSetup.defaultConfigNames.joined(separator: ", ") + ")")
            let repeated = configs?.enumerated().first { index, name in configs![..<index].contains(name) }?.element
            try StrictJSON.check(repeated == nil, "configs", in: decoder, "names '\(repeated ?? "")' twice")
            // The same ranges as `generate`'s flags.
            try StrictJSON.check(!corpora.isEmpty, "corpora", in: decoder, "must name at least one corpus")
            for (name, value, range) in [("repeat", repeats, GenerationPlan.repeatsRange), ("concurrency", concurrency, GenerationPlan.concurrencyRange),
                                         ("warmup", warmup, GenerationPlan.warmupRange), ("seed", seed ?? 0, GenerationPlan.seedRange)] {
                try StrictJSON.check(range.contains(value), name, in: decoder, "must be in \(range.lowerBound)...\(range.upperBound), not \(value)")
            }
        }

        mutating func resolvePaths(_ resolve: (String) -> String) {
            corpora = corpora.map(resolve)
            if !profileIsDefault { profile = resolve(profile) }
            variants = variants.map(resolve)
            references = references.map(resolve)
            thresholds = thresholds.map { Thresholds.presets[$0] != nil ? $0 : resolve($0) }
        }

        /// The plan this half runs, with the default bank, keyword files and packs.
        package var plan: GenerationPlan {
            var plan = GenerationPlan()
            plan.route = route
            plan.repeats = repeats
            plan.concurrency = concurrency
            plan.warmup = warmup
            plan.seed = seed
            if let packs { plan.packs = packs }
            plan.translator = translator
            plan.referencesPath = references
            if let thresholds { plan.thresholds = thresholds }
            plan.refuseUnsupported = refuseUnsupported
            plan.cachePolicy = cachePolicy
            plan.variantsPath = variants
            return plan
        }
    }

    package var detection: Detection?
    package var generation: Generation?

    package init(from decoder: Decoder) throws {
        try StrictJSON.rejectUnknownKeys(in: decoder, allowed: ["schema_version", "detection", "generation"])
        let c = try decoder.container(keyedBy: StrictJSON.AnyKey.self)
        let version = try c.decodeIfPresent(Int.self, forKey: .init(stringValue: "schema_version")) ?? 1
        try StrictJSON.checkSchemaVersion(version)
        detection = try c.decodeIfPresent(Detection.self, forKey: .init(stringValue: "detection"))
        generation = try c.decodeIfPresent(Generation.self, forKey: .init(stringValue: "generation"))
        if detection == nil && generation == nil {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "nothing to run: give \"detection\", \"generation\" or both"))
        }
        // Every name the generation half detects with must be a config: found now, before anything runs.
        if let names = generation?.configs {
            do { _ = try generationConfigs(names: names) } catch let error as ConfigurationError {
                guard case .invalidValue(_, _, let reason) = error else { throw error }
                throw StrictJSON.OutOfRange(keyPath: ["generation", "configs"], reason: reason)
            }
        }
    }

    /// The detection configs the generation half runs (`Generation.configs`, or the defaults), the reference first.
    package func generationConfigs() throws -> [DetectionConfig] {
        try generationConfigs(names: generation?.configs ?? GenerationSetup.defaultConfigNames)
    }

    private func generationConfigs(names: [String]) throws -> [DetectionConfig] {
        let detector = detection?.detector ?? DetectorKind.builtin.spec
        return try GenerationSetup.configs(named: names, available: detection?.configs ?? [], detector: detector, key: "generation.configs")
    }

    package static let defaultPath = "bench.json"

    /// Reads a suite file; the paths in it are read from its directory (`SuitePath`).
    package static func load(_ path: String) throws -> BenchConfig {
        var config = try StrictJSON.load(BenchConfig.self, from: path)
        config.resolvePaths(inFile: path)
        return config
    }

    mutating func resolvePaths(inFile file: String) {
        let resolve = { (path: String) in SuitePath.resolve(path, inFile: file) }
        if let corpora = detection?.corpora { detection?.corpora = corpora.map(resolve) }
        if let corpora = detection?.optionalCorpora { detection?.optionalCorpora = corpora.map(resolve) }
        generation?.resolvePaths(resolve)
    }
}
