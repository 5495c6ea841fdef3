import BenchSupport
import Items
import RunProvenance

/// What `detect` measured, summarised: the schema behind detection-summary.csv, detection.md and
/// detection.json. Per-item results are not in it: they stream to detection-items.csv and the results
/// log, which `files` names (`DetectionOutput.readResults` reads them back).
public struct DetectionReport: Sendable, Codable {
    /// 2: per-item results moved out of detection.json (to the files named in `files`); comparisons
    /// keep counts, not item lists.
    public static let schemaVersion = 2

    /// A config as it ran, echoed into the report.
    public struct ConfigEcho: Sendable, Hashable, Codable {
        public var name: String
        public var detector: String
        public var candidates: String
        public var resolvedCandidates: [String]?
        public var hints: String

        public init(name: String, detector: String, candidates: String, resolvedCandidates: [String]? = nil, hints: String) {
            self.name = name
            self.detector = detector
            self.candidates = candidates
            self.resolvedCandidates = resolvedCandidates
            self.hints = hints
        }

        enum CodingKeys: String, CodingKey {
            case name, detector, candidates, resolvedCandidates = "resolved_candidates", hints
        }
    }

    /// Metrics of one config over one slice of the items.
    public struct Slice: Sendable, Hashable, Codable {
        public var config: String
        public var detector: String
        /// `all`, `lang=<code>`, `tag=<tag>` or `length=<bucket>`.
        public var slice: String
        public var metrics: ClassificationMetrics
    }

    /// A paired comparison of two configs on the same items.
    public struct Comparison: Sendable, Hashable, Codable {
        public var base: String
        public var other: String
        public var n: Int
        /// Items `other` gets right and `base` wrong.
        public var fixed: Int
        /// Items `base` gets right and `other` wrong.
        public var broken: Int
        /// McNemar's exact two-sided p-value.
        public var pValue: Double

        enum CodingKeys: String, CodingKey {
            case base, other, n, fixed, broken, pValue = "p_value"
        }
    }

    public var schemaVersion: Int
    public var provenance: Provenance
    public var configs: [ConfigEcho]
    public var slices: [Slice]
    public var confusion: [String: ConfusionMatrix]
    public var comparisons: [Comparison]
    public var timings: [DetectionRunner.Timing]
    /// Items with a result in at least one config.
    public var items: Int
    /// The per-item files beside this report, by role: `items_csv` and `results_log`.
    public var files: [String: String]
    public var definitions: [String: String]
    /// What each error costs (`ConfusionCosts`), when the run was given the matrix: each config's cost-weighted error.
    public var confusionCosts: ConfusionCosts?
    /// Configs whose detector failed more than half of their items (known when the report is built from
    /// results; not stored in detection.json — the Markdown and the exit status carry it).
    public var failedConfigs: [FailedConfig] = []
    /// Configs whose detector failed some items, at most half (known and kept like `failedConfigs`).
    public var partlyFailedConfigs: [FailedConfig] = []

    enum CodingKeys: String, CodingKey {
        case schemaVersion = "schema_version", provenance, configs, slices, confusion, comparisons, timings, items, files, definitions
        case candidateSets = "candidate_sets", confusionCosts = "confusion_costs", sweep
    }

    /// Everything decoded, and the candidate-set splits, derived (read back by nothing: they follow from the rest).
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(schemaVersion, forKey: .schemaVersion)
        try c.encode(provenance, forKey: .provenance)
        try c.encode(configs, forKey: .configs)
        try c.encode(slices, forKey: .slices)
        try c.encode(confusion, forKey: .confusion)
        try c.encode(comparisons, forKey: .comparisons)
        try c.encode(timings, forKey: .timings)
        try c.encode(items, forKey: .items)
        try c.encode(files, forKey: .files)
        try c.encode(definitions, forKey: .definitions)
        try c.encode(candidateSetSplits, forKey: .candidateSets)
        try c.encodeIfPresent(confusionCosts, forKey: .confusionCosts)
        let sweep = sweep
        if !sweep.isEmpty { try c.encode(sweep, forKey: .sweep) }
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        schemaVersion = try c.decode(Int.self, forKey: .schemaVersion)
        provenance = try c.decode(Provenance.self, forKey: .provenance)
        configs = try c.decode([ConfigEcho].self, forKey: .configs)
        slices = try c.decode([Slice].self, forKey: .slices)
        confusion = try c.decode([String: ConfusionMatrix].self, forKey: .confusion)
        comparisons = try c.decode([Comparison].self, forKey: .comparisons)
        timings = try c.decode([DetectionRunner.Timing].self, forKey: .timings)
        // Schema 1 reports had neither key; `DetectionStore` refuses them, naming the version.
        items = try c.decodeIfPresent(Int.self, forKey: .items) ?? 0
        files = try c.decodeIfPresent([String: String].self, forKey: .files) ?? Self.perItemFiles
        definitions = try c.decode([String: String].self, forKey: .definitions)
        confusionCosts = try c.decodeIfPresent(ConfusionCosts.self, forKey: .confusionCosts)
    }

    /// A config's mean cost per item under `confusionCosts` (nil without them).
    public func confusionCost(config: String) -> Double? {
        guard let confusionCosts, let matrix = confusion[config] else { return nil }
        return confusionCosts.meanCost(matrix)
    }

    public static let perItemFiles = ["items_csv": DetectionOutput.itemsFile, "results_log": DetectionResultLog.fileName]

    public static let metricDefinitions: [String: String] = [
        "accuracy": "share of items whose top prediction is the gold language (locale-equivalent); abstentions (und) and detector errors count as wrong",
        "confusion_cost": "mean cost per item of each answer under confusion_costs (0 right; a listed true->predicted error its weight, e.g. uk->ru 3; any other error, abstention or failure the default): errors people mind more weigh more",
        "inside_accuracy": "for a config with candidates: accuracy over the items whose gold language is a candidate (locale-equivalent), 95% Wilson interval; items of other languages are wrong by construction and listed as absorbed (gold → predicted)",
        "ci95": "95% Wilson score interval of accuracy",
        "macro_f1": "unweighted mean over gold languages of F1 = 2PR/(P+R); left empty on lang= rows of detection-summary.csv, whose f1 column is that language's F1 over the whole config (its precision counts other languages' items called it)",
        "precision": "TP / (TP + FP): of the items predicted as this language, the share that are",
        "recall": "TP / (TP + FN): of this language's items, the share predicted as it (equals the language's accuracy)",
        "false_positive_rate": "FP / (FP + TN): of the other languages' items, the share wrongly called this language",
        "mcnemar_p": "two-sided exact McNemar test on paired outcomes: p = min(1, 2·P(X ≤ min(fixed, broken))), X ~ Bin(fixed + broken, 1/2)",
        "items_per_second": "items / wall time of the detector's calls, one item at a time on one task (single thread)",
        "length": "1, 2-3, 4-8, 9+ words; ja and zh by characters: 1-2, 3-6, 7-16, 17+",
    ]

    /// Builds the report from results in config order (tests, and `merge` of shards' logs).
    public init(configs: [DetectionRunner.ResolvedConfig], results: [DetectionResult], timings: [DetectionRunner.Timing],
                provenance: Provenance) {
        self.init(echoes: configs.map(ConfigEcho.init), results: results, timings: timings, provenance: provenance)
    }

    /// Builds the report from configs as echoed by an earlier report, and results in canonical order.
    public init(echoes: [ConfigEcho], results: [DetectionResult], timings: [DetectionRunner.Timing], provenance: Provenance) {
        var tally = DetectionTally(echoes: echoes)
        let configIndex = echoes.map(\.name).firstPositions
        var itemIndex: [String: Int] = [:]
        for result in results {
            guard let config = configIndex[result.config] else { continue }
            let item = itemIndex[result.itemID] ?? itemIndex.count
            itemIndex[result.itemID] = item
            tally.add(result, config: config, item: item)
        }
        self.init(tally: tally, timings: timings, provenance: provenance)
    }

    /// Builds the report from the running aggregates of a run.
    public init(tally: DetectionTally, timings: [DetectionRunner.Timing], provenance: Provenance) {
        schemaVersion = Self.schemaVersion
        self.provenance = provenance
        configs = tally.echoes
        let withErrors = Self.configsWithErrors(tally)
        failedConfigs = withErrors.filter(\.isFailed)
        partlyFailedConfigs = withErrors.filter { !$0.isFailed }
        var slices: [Slice] = []
        var confusion: [String: ConfusionMatrix] = [:]
        for (echo, own) in zip(tally.echoes, tally.configs) {
            let detector = own.detector ?? echo.detector
            func add(_ slice: String, _ subset: ClassificationMetrics.Tally?) {
                if let subset, subset.n > 0 { slices.append(Slice(config: echo.name, detector: detector, slice: slice, metrics: subset.metrics(codes: tally.equivalence.codes))) }
            }
            add("all", own.all)
            let languages = own.byLanguage.indices.filter { own.byLanguage[$0] != nil }.sorted { tally.equivalence.codes[$0] < tally.equivalence.codes[$1] }
            for number in languages { add("lang=\(tally.equivalence.codes[number])", own.byLanguage[number]) }
            for (tag, subset) in own.byTag.sorted(by: { $0.key < $1.key }) { add("tag=\(tag)", subset) }
            for bucket in LengthBucket.allCases { add("length=\(bucket.rawValue)", own.byLength[bucket]) }
            confusion[echo.name] = own.confusion.matrix(codes: tally.equivalence.codes)
        }
        self.slices = slices
        self.confusion = confusion
        var comparisons: [Comparison] = []
        for (i, base) in tally.echoes.enumerated() {
            for (j, other) in tally.echoes.enumerated().dropFirst(i + 1) where Self.compared(base.name, other.name) {
                let pair = tally.configs[i].outcomes.paired(with: tally.configs[j].outcomes)
                comparisons.append(Comparison(base: base.name, other: other.name, n: pair.n, fixed: pair.fixed, broken: pair.broken,
                                              pValue: Statistics.mcnemarExact(b: pair.fixed, c: pair.broken)))
            }
        }
        self.comparisons = comparisons
        self.timings = timings
        items = tally.itemCount
        files = Self.perItemFiles
        definitions = Self.metricDefinitions
    }

    /// The metrics of `config` over `slice`.
    public func metrics(config: String, slice: String = "all") -> ClassificationMetrics? {
        slices.first { $0.config == config && $0.slice == slice }?.metrics
    }
}

extension DetectionReport.ConfigEcho {
    package init(_ resolved: DetectionRunner.ResolvedConfig) {
        self.init(name: resolved.config.name, detector: resolved.config.detector, candidates: resolved.config.candidates.description,
                  resolvedCandidates: resolved.candidates?.map(\.identifier), hints: resolved.config.hintsDescription)
    }
}
