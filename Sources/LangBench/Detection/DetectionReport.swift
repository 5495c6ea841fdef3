/// Everything `detect` measured: the schema behind detection-items.csv, detection-summary.csv,
/// detection.md and detection.json.
public struct DetectionReport: Sendable, Codable {
    public static let schemaVersion = 1

    /// A config as it ran, echoed into the report.
    public struct ConfigEcho: Sendable, Hashable, Codable {
        public var name: String
        public var detector: String
        public var candidates: String
        public var resolvedCandidates: [String]?
        public var hints: String

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
        public var fixedItems: [String]
        public var brokenItems: [String]

        enum CodingKeys: String, CodingKey {
            case base, other, n, fixed, broken, pValue = "p_value", fixedItems = "fixed_items", brokenItems = "broken_items"
        }
    }

    public var schemaVersion: Int
    public var provenance: Provenance
    public var configs: [ConfigEcho]
    public var slices: [Slice]
    public var confusion: [String: ConfusionMatrix]
    public var comparisons: [Comparison]
    public var timings: [DetectionRunner.Timing]
    public var results: [DetectionResult]
    public var definitions: [String: String]

    enum CodingKeys: String, CodingKey {
        case schemaVersion = "schema_version", provenance, configs, slices, confusion, comparisons, timings, results, definitions
    }

    public static let metricDefinitions: [String: String] = [
        "accuracy": "share of items whose top prediction is the gold language (locale-equivalent); abstentions (und) and detector errors count as wrong",
        "ci95": "95% Wilson score interval of accuracy",
        "macro_f1": "unweighted mean over gold languages of F1 = 2PR/(P+R); left empty on lang= rows of detection-summary.csv, whose f1 column is that language's F1 over the whole config (its precision counts other languages' items called it)",
        "precision": "TP / (TP + FP): of the items predicted as this language, the share that are",
        "recall": "TP / (TP + FN): of this language's items, the share predicted as it (equals the language's accuracy)",
        "false_positive_rate": "FP / (FP + TN): of the other languages' items, the share wrongly called this language",
        "mcnemar_p": "two-sided exact McNemar test on paired outcomes: p = min(1, 2·P(X ≤ min(fixed, broken))), X ~ Bin(fixed + broken, 1/2)",
        "items_per_second": "items / wall time of the detector's calls, one item at a time on one task (single thread)",
        "length": "1, 2-3, 4-8, 9+ words; ja and zh by characters: 1-2, 3-6, 7-16, 17+",
    ]

    /// Builds the report from results in config order.
    public init(configs: [DetectionRunner.ResolvedConfig], results: [DetectionResult], timings: [DetectionRunner.Timing],
                provenance: Provenance) {
        self.init(echoes: configs.map {
            ConfigEcho(name: $0.config.name, detector: $0.config.detector, candidates: $0.config.candidates.description,
                       resolvedCandidates: $0.candidates?.map(\.identifier), hints: $0.config.hintsDescription)
        }, results: results, timings: timings, provenance: provenance)
    }

    /// Builds the report from configs as echoed by an earlier report (used by `merge`).
    public init(echoes: [ConfigEcho], results: [DetectionResult], timings: [DetectionRunner.Timing], provenance: Provenance) {
        schemaVersion = Self.schemaVersion
        self.provenance = provenance
        configs = echoes
        let byConfig = Dictionary(grouping: results, by: \.config)
        var slices: [Slice] = []
        var confusion: [String: ConfusionMatrix] = [:]
        for echo in echoes {
            let name = echo.name
            let own = byConfig[name] ?? []
            let detector = own.first?.detector ?? echo.detector
            func add(_ slice: String, _ subset: [DetectionResult]) {
                if !subset.isEmpty { slices.append(Slice(config: name, detector: detector, slice: slice, metrics: ClassificationMetrics(subset))) }
            }
            add("all", own)
            for (lang, subset) in Dictionary(grouping: own, by: \.lang).sorted(by: { $0.key < $1.key }) { add("lang=\(lang)", subset) }
            let tags = Set(own.flatMap(\.tags)).sorted()
            for tag in tags { add("tag=\(tag)", own.filter { $0.tags.contains(tag) }) }
            for bucket in LengthBucket.allCases { add("length=\(bucket.rawValue)", own.filter { $0.length == bucket }) }
            confusion[name] = ConfusionMatrix(own)
        }
        self.slices = slices
        self.confusion = confusion
        var comparisons: [Comparison] = []
        for (i, base) in echoes.enumerated() {
            for other in echoes.dropFirst(i + 1) {
                comparisons.append(Self.compare(byConfig[base.name] ?? [], byConfig[other.name] ?? [], base: base.name, other: other.name))
            }
        }
        self.comparisons = comparisons
        self.timings = timings
        self.results = results
        definitions = Self.metricDefinitions
    }

    static func compare(_ a: [DetectionResult], _ b: [DetectionResult], base: String, other: String) -> Comparison {
        let right = Dictionary(a.map { ($0.itemID, $0.correct) }, uniquingKeysWith: { first, _ in first })
        var fixed: [String] = [], broken: [String] = []
        var n = 0
        for result in b {
            guard let baseCorrect = right[result.itemID] else { continue }
            n += 1
            if result.correct && !baseCorrect { fixed.append(result.itemID) }
            if !result.correct && baseCorrect { broken.append(result.itemID) }
        }
        return Comparison(base: base, other: other, n: n, fixed: fixed.count, broken: broken.count,
                          pValue: Statistics.mcnemarExact(b: fixed.count, c: broken.count), fixedItems: fixed, brokenItems: broken)
    }

    /// The metrics of `config` over `slice`.
    public func metrics(config: String, slice: String = "all") -> ClassificationMetrics? {
        slices.first { $0.config == config && $0.slice == slice }?.metrics
    }
}
