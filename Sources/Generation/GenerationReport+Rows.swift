import Support

/// The rows of a generation report, each computed from the records it summarises.
extension GenerationReport {
    /// One route × slice row of the summary.
    package struct SummaryRow: Sendable, Hashable, Codable {
        package var route: Route
        /// `all` or `lang=<code>`.
        package var slice: String
        /// Records (crisis-flagged excluded).
        package var n: Int
        /// Replies from the model; latency is measured over these.
        package var modelReplies: Int
        package var latency: LatencySummary?
        package var ttft: LatencySummary?
        package var tpot: LatencySummary?
        /// Per generated token (every request) and per token of the reply the person reads.
        package var msPerToken: LatencySummary?
        package var msPerReplyToken: LatencySummary?
        /// Median completion tokens per model reply (all requests of the record).
        package var completionTokensP50: Double?
        package var fallbackRate: Double
        package var fallbackCI: Statistics.Interval
        /// Of the replies whose language was checked, the share in the detected language.
        package var fidelity: Double?
        package var servedRate: Double
        /// Model replies stuck in a loop (`DegenerateOutput`): delivered, not served.
        package var degenerateOutput: Int

        enum CodingKeys: String, CodingKey {
            case route, slice, n, modelReplies = "model_replies", latency, ttft, tpot, msPerToken = "ms_per_token", msPerReplyToken = "ms_per_reply_token"
            case completionTokensP50 = "completion_tokens_p50", fallbackRate = "fallback_rate", fallbackCI = "fallback_ci95", fidelity
            case servedRate = "served_rate", degenerateOutput = "degenerate_output"
        }

        init(_ route: Route, _ slice: String, _ records: [GenerationRecord]) {
            let model = records.filter { $0.outcome == .model }
            let fallbackCount = records.count - model.count
            let checked = records.compactMap(\.replyLangOK)
            self.route = route
            self.slice = slice
            n = records.count
            modelReplies = model.count
            latency = LatencySummary(model.map(\.totalMs))
            ttft = LatencySummary(model.compactMap(\.ttftMs))
            tpot = LatencySummary(model.compactMap(\.tpotMs))
            msPerToken = LatencySummary(model.compactMap(\.msPerToken))
            msPerReplyToken = LatencySummary(model.compactMap(\.msPerReplyToken))
            let counted = model.compactMap { $0.completionTokens.map(Double.init) }
            completionTokensP50 = counted.isEmpty ? nil : Statistics.quantile(counted, 0.5)
            fallbackRate = records.isEmpty ? 0 : Double(fallbackCount) / Double(records.count)
            fallbackCI = Statistics.wilson(successes: fallbackCount, trials: records.count)
            fidelity = checked.isEmpty ? nil : Double(checked.filter { $0 }.count) / Double(checked.count)
            servedRate = records.isEmpty ? 0 : Double(records.filter { $0.servedInOwnLanguage == true }.count) / Double(records.count)
            degenerateOutput = records.filter { $0.notServedReason == NotServed.degenerateOutput }.count
        }
    }

    /// Fallbacks for one reason on one route, over the route's records with crisis items excluded.
    package struct FallbackRow: Sendable, Hashable, Codable {
        package var route: Route
        package var reason: FallbackReason
        package var count: Int
        package var n: Int
        package var rate: Double
        package var ci: Statistics.Interval
    }

    /// Served in the person's own language, for one route and language, with why not.
    package struct ServedRow: Sendable, Hashable, Codable {
        package var route: Route
        /// A language code or `all`.
        package var lang: String
        package var n: Int
        package var served: Int
        package var rate: Double
        package var ci: Statistics.Interval
        package var misdetected: Int
        package var wrongOutputLanguage: Int
        /// Model replies stuck in a loop (`DegenerateOutput`), whatever was detected.
        package var degenerateOutput: Int
        /// Other fallback reasons (detection right), by reason.
        package var fallbacks: [String: Int]
        /// Against the detected language, as the pipeline checks it.
        package var fidelity: Double?

        enum CodingKeys: String, CodingKey {
            case route, lang, n, served, rate, ci = "ci95", misdetected, wrongOutputLanguage = "wrong_output_language"
            case degenerateOutput = "degenerate_output", fallbacks, fidelity
        }

        init(_ route: Route, lang: String, _ records: [GenerationRecord]) {
            self.route = route
            self.lang = lang
            n = records.count
            served = records.filter { $0.servedInOwnLanguage == true }.count
            rate = n > 0 ? Double(served) / Double(n) : 0
            ci = Statistics.wilson(successes: served, trials: n)
            let reasons = records.compactMap(\.notServedReason)
            misdetected = reasons.filter { $0 == NotServed.misdetected }.count
            wrongOutputLanguage = reasons.filter { $0 == FallbackReason.wrongOutputLanguage.rawValue }.count
            degenerateOutput = reasons.filter { $0 == NotServed.degenerateOutput }.count
            let counted = [NotServed.misdetected, FallbackReason.wrongOutputLanguage.rawValue, NotServed.degenerateOutput]
            fallbacks = Dictionary(grouping: reasons.filter { !counted.contains($0) }, by: { $0 }).mapValues(\.count)
            let checked = records.compactMap(\.replyLangOK)
            fidelity = checked.isEmpty ? nil : Double(checked.filter { $0 }.count) / Double(checked.count)
        }
    }

    /// What the server's own counts say about the cache state requests started from.
    package struct CacheCheck: Sendable, Hashable, Codable {
        package var policy: CachePolicy
        package var requests: Int
        /// Requests that evaluated their whole prompt (`prompt_n` = prompt tokens, `cache_n` = 0).
        package var coldRequests: Int
        package var cachedTokens: Int

        enum CodingKeys: String, CodingKey {
            case policy, requests, coldRequests = "cold_requests", cachedTokens = "cached_tokens"
        }

        /// Over the model's requests only: a translation engine's have no prompt cache.
        init(policy: CachePolicy, stages all: [StageTiming]) {
            let stages = all.filter { $0.engine == nil }
            self.policy = policy
            requests = stages.count
            coldRequests = stages.filter(\.isCold).count
            cachedTokens = stages.compactMap(\.promptCached).reduce(0, +)
        }

        /// The policy held: under `cold`, no request reused cached tokens.
        package var holds: Bool { policy != .cold || coldRequests == requests }
    }
}
