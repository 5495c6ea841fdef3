import Support
import Corpus
import Provenance

/// What `detect` measured, summarised: the schema behind detection-summary.csv, detection.md and
/// detection.json. Per-item results are not in it: they stream to detection-items.csv and the results
/// log, which `files` names (`DetectionStore` reads them back).
public struct DetectionReport: Sendable, Codable {
    /// 2: per-item results moved out of detection.json (to the files named in `files`); comparisons
    /// keep counts, not item lists.
    public static let schemaVersion = 2

    /// A config as it ran, echoed into the report.
    public typealias ConfigEcho = DetectionConfigEcho

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
    /// Detection over the texts an import found in several languages (its ambiguity file), scored as any of their languages.
    public var sharedTexts: [SharedTextSlice] = []

    enum CodingKeys: String, CodingKey {
        case schemaVersion = "schema_version", provenance, configs, slices, confusion, comparisons, timings, items, files, definitions
        case candidateSets = "candidate_sets", confusionCosts = "confusion_costs", sweep, sharedTexts = "shared_texts"
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
        if !sharedTexts.isEmpty { try c.encode(sharedTexts, forKey: .sharedTexts) }
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
        sharedTexts = try c.decodeIfPresent([SharedTextSlice].self, forKey: .sharedTexts) ?? []
    }

    /// A config's mean cost per item under `confusionCosts` (nil without them).
    public func confusionCost(config: String) -> Double? {
        guard let confusionCosts, let matrix = confusion[config] else { return nil }
        return confusionCosts.meanCost(matrix)
    }

    /// The per-item files a run writes beside its report (`files`): its view for people, and the results log.
    public static let itemsFile = "detection-items.csv", resultsLog = "detection-results.jsonl"
    public static let perItemFiles = ["items_csv": itemsFile, "results_log": resultsLog]

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
