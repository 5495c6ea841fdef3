/// Everything `generate` measured: the schema behind generation-items.csv, generation-summary.csv,
/// generation.md and generation.json.
public struct GenerationReport: Sendable, Codable {
    public static let schemaVersion = 1

    /// The settings a run used, echoed so two runs can be checked for comparability.
    public struct Settings: Sendable, Hashable, Codable {
        public var profile: String
        public var route: RouteChoice
        public var sampling: ModelProfile.Sampling
        public var translationSampling: ModelProfile.Sampling
        public var supportedLanguages: [String]
        public var detection: String
        public var packs: LanguagePacks
        public var concurrency: Int
        public var repeats: Int
        public var warmup: Int
        public var refuseUnsupported: Bool
        public var server: [String: String]

        public init(profile: String, route: RouteChoice, sampling: ModelProfile.Sampling, translationSampling: ModelProfile.Sampling,
                    supportedLanguages: [String], detection: String, packs: LanguagePacks, concurrency: Int, repeats: Int, warmup: Int,
                    refuseUnsupported: Bool, server: [String: String]) {
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
        }

        enum CodingKeys: String, CodingKey {
            case profile, route, sampling, translationSampling = "translation_sampling", supportedLanguages = "supported_languages"
            case detection, packs, concurrency, repeats, warmup, refuseUnsupported = "refuse_unsupported", server
        }
    }

    /// One route × slice row of the summary.
    public struct SummaryRow: Sendable, Hashable, Codable {
        public var route: Route
        /// `all` or `lang=<code>`.
        public var slice: String
        /// Records (crisis-flagged excluded).
        public var n: Int
        /// Replies from the model; latency is measured over these.
        public var modelReplies: Int
        public var latency: LatencySummary?
        public var ttft: LatencySummary?
        public var fallbackRate: Double
        public var fallbackCI: Statistics.Interval
        /// Of the replies whose language was checked, the share in the user's language.
        public var fidelity: Double?

        enum CodingKeys: String, CodingKey {
            case route, slice, n, modelReplies = "model_replies", latency, ttft, fallbackRate = "fallback_rate"
            case fallbackCI = "fallback_ci95", fidelity
        }
    }

    /// Fallbacks for one reason on one route.
    public struct FallbackRow: Sendable, Hashable, Codable {
        public var route: Route
        public var reason: FallbackReason
        public var count: Int
        public var n: Int
        public var rate: Double
        public var ci: Statistics.Interval
    }

    /// Pivot/direct total-latency ratio on items that got a model reply on both routes.
    public struct PairedRatio: Sendable, Hashable, Codable {
        public var slice: String
        public var pairs: Int
        public var medianRatio: Double
        public var ci: Statistics.Interval

        enum CodingKeys: String, CodingKey { case slice, pairs, medianRatio = "median_ratio", ci }
    }

    public var schemaVersion: Int
    public var provenance: Provenance
    public var settings: Settings
    public var summary: [SummaryRow]
    public var fallbacks: [FallbackRow]
    public var ratios: [PairedRatio]
    public var warmupRuns: Int
    public var records: [GenerationRecord]
    public var definitions: [String: String]

    enum CodingKeys: String, CodingKey {
        case schemaVersion = "schema_version", provenance, settings, summary, fallbacks, ratios, warmupRuns = "warmup_runs", records, definitions
    }

    public static let metricDefinitions: [String: String] = [
        "total_ms": "end to end, from the start of detection to the last token of the reply the user reads (all stages, client clock)",
        "ttft_ms": "time to first token the user sees: detection + TTFT of generation (direct), or everything before the translate-out stage + its TTFT (pivot); TTFT = first non-empty streamed content − request sent",
        "latency": "mean and percentiles (linear interpolation) of total_ms over model replies; p50/p95 intervals: percentile bootstrap, 2000 resamples, seeded",
        "fallback_rate": "fallback replies / records (crisis-flagged items excluded), 95% Wilson interval",
        "fidelity": "model replies whose detected language matches the user's (locale-equivalent) / replies checked; a mismatch becomes a wrong-output-language fallback",
        "tokens_per_second": "generated tokens after the first / time between first and last token event (client), as the server's predicted_per_second",
        "pivot_direct_ratio": "median over items with a model reply on both routes of pivot total_ms / direct total_ms, bootstrap 95% interval",
        "warmup": "requests made before measurement to load caches; excluded from every figure and counted in warmup_runs",
    ]

    public init(records: [GenerationRecord], settings: Settings, warmupRuns: Int, provenance: Provenance) {
        schemaVersion = Self.schemaVersion
        self.provenance = provenance
        self.settings = settings
        self.records = records
        self.warmupRuns = warmupRuns
        definitions = Self.metricDefinitions
        let measured = records.filter { $0.fallbackReason != .crisisProtocol }
        var summary: [SummaryRow] = []
        var fallbacks: [FallbackRow] = []
        for route in Route.allCases {
            let own = measured.filter { $0.route == route }
            guard !own.isEmpty else { continue }
            summary.append(Self.row(route, "all", own))
            for (lang, subset) in Dictionary(grouping: own, by: \.lang).sorted(by: { $0.key < $1.key }) {
                summary.append(Self.row(route, "lang=\(lang)", subset))
            }
            let all = records.filter { $0.route == route }
            for reason in FallbackReason.allCases {
                let count = all.filter { $0.fallbackReason == reason }.count
                guard count > 0 else { continue }
                fallbacks.append(FallbackRow(route: route, reason: reason, count: count, n: all.count, rate: Double(count) / Double(all.count),
                                             ci: Statistics.wilson(successes: count, trials: all.count)))
            }
        }
        self.summary = summary
        self.fallbacks = fallbacks
        ratios = Self.pairedRatios(measured)
    }

    static func row(_ route: Route, _ slice: String, _ records: [GenerationRecord]) -> SummaryRow {
        let model = records.filter { $0.outcome == .model }
        let fallbackCount = records.count - model.count
        let checked = records.compactMap(\.replyLangOK)
        return SummaryRow(route: route, slice: slice, n: records.count, modelReplies: model.count,
                          latency: LatencySummary(model.map(\.totalMs)), ttft: LatencySummary(model.compactMap(\.ttftMs)),
                          fallbackRate: records.isEmpty ? 0 : Double(fallbackCount) / Double(records.count),
                          fallbackCI: Statistics.wilson(successes: fallbackCount, trials: records.count),
                          fidelity: checked.isEmpty ? nil : Double(checked.filter { $0 }.count) / Double(checked.count))
    }

    static func pairedRatios(_ records: [GenerationRecord]) -> [PairedRatio] {
        let model = records.filter { $0.outcome == .model }
        var direct: [String: GenerationRecord] = [:]
        for record in model where record.route == .direct { direct["\(record.itemID)#\(record.repeatIndex)"] = record }
        var ratios: [(lang: LanguageCode, ratio: Double)] = []
        for record in model where record.route == .pivot {
            if let base = direct["\(record.itemID)#\(record.repeatIndex)"], base.totalMs > 0 {
                ratios.append((record.lang, record.totalMs / base.totalMs))
            }
        }
        guard !ratios.isEmpty else { return [] }
        func make(_ slice: String, _ values: [Double]) -> PairedRatio {
            PairedRatio(slice: slice, pairs: values.count, medianRatio: Statistics.quantile(values, 0.5),
                        ci: Statistics.bootstrapQuantile(values, 0.5))
        }
        var rows = [make("all", ratios.map(\.ratio))]
        for (lang, subset) in Dictionary(grouping: ratios, by: \.lang).sorted(by: { $0.key < $1.key }) {
            rows.append(make("lang=\(lang)", subset.map(\.ratio)))
        }
        return rows
    }

    public func summary(route: Route, slice: String = "all") -> SummaryRow? {
        summary.first { $0.route == route && $0.slice == slice }
    }
}
