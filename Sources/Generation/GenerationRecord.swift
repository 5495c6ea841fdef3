import Corpus

/// One item through one route (one repeat): outcome, reason, the route order and cache state it was
/// timed in, every timing, and whether the person was served in their own language. Never holds text.
package struct GenerationRecord: Sendable, Hashable, Codable {
    package enum Outcome: String, Sendable, Codable { case model, fallback }
    /// What happened to the conversation history on the pivot.
    package enum HistoryUse: String, Sendable, Codable {
        case none, used, dropped
    }

    package var itemID: String
    /// The generation variant (`--variants`) this record ran; nil in a run without a variants file.
    package var variant: String?
    /// The detection config this record's message was detected with, when it is not the run's reference config (the
    /// first, whose records carry nil and make every figure but the served funnel).
    package var config: String?
    /// True when this record's requests were an earlier config's, reused: the same detected language gives the same
    /// requests, and the reply's language check agreed (`ServedFunnel`); nil when it made its own.
    package var shared: Bool?
    package var lang: LanguageCode
    package var detectedLang: String
    package var route: Route
    package var repeatIndex: Int
    /// Which route of the item ran first (counterbalanced per item, seeded); `single` when one route ran.
    package var routeOrder: RouteOrder
    /// The cache state every request of this record started from.
    package var cachePolicy: CachePolicy
    package var outcome: Outcome
    package var fallbackReason: FallbackReason?
    package var errorMessage: String?
    package var history: HistoryUse
    package var totalMs: Double
    /// Until the first token of the reply the user reads (for the pivot, of the translated reply).
    package var ttftMs: Double?
    /// (total − TTFT) / (tokens of the reply the user reads − 1).
    package var tpotMs: Double?
    package var detectMs: Double
    package var translateIn: StageTiming?
    package var translateHistoryMs: Double?
    package var generate: StageTiming?
    package var translateOut: StageTiming?
    /// Prompt and completion tokens summed over every request of this item; nil once a request's
    /// count is unknown (a server that reports no usage).
    package var promptTokens: Int?
    package var completionTokens: Int?
    /// Tokens/s of the generation stage from the server's counts and the client's stream timing.
    package var generateTokensPerSecond: Double?
    package var replyLang: String?
    /// The reply's language matched the detected language (what the pipeline checks).
    package var replyLangOK: Bool?
    /// The reply came from the model and is in the item's true language (its corpus label); nil for crisis items.
    package var servedInOwnLanguage: Bool?
    /// Why not: `misdetected`, `wrong-output-language` or the fallback reason.
    package var notServedReason: String?
    /// The second judge's verdict (`JudgeAgreement`): a model reply, not degenerate, it finds in the true language; nil
    /// without a second judge (and for crisis items).
    package var servedBySecondJudge: Bool?
    /// The reply's language as the second judge found it (`und`: it abstained); nil when it read no reply.
    package var secondJudgeLang: String?
    /// The pool server this record ran on (`server-1`, …, in `--server-url` order); nil in a run on one server.
    package var server: String?
    /// The pool server that had this record's item when it failed, so the item moved to `server`; nil when it never moved.
    package var reassignedFrom: String?
    /// True when a request of this record got text past its stop string (the server ignored `stop`) and the text was
    /// cut there; nil when every request stopped where it was asked to.
    package var ignoredStop: Bool?
    /// True when a server's text held the API key and it was redacted before anything was recorded; nil otherwise.
    package var secretRedacted: Bool?
    /// True when a server reported a token count no request of this record could have (then the record's count is unknown).
    package var invalidCounts: Bool?
    /// chrF of the pivot's translate-in output against the item's English reference (`TranslationReferences`); nil
    /// without a reference, on the direct route, or when the message was not translated.
    package var translateInChrF: Double?

    enum CodingKeys: String, CodingKey {
        case itemID = "item_id", variant, config, shared, lang, detectedLang = "detected_lang", route, repeatIndex = "repeat", routeOrder = "route_order"
        case cachePolicy = "cache_policy", outcome, fallbackReason = "fallback_reason", errorMessage = "error_message", history
        case totalMs = "total_ms", ttftMs = "ttft_ms", tpotMs = "tpot_ms", detectMs = "detect_ms", translateIn = "translate_in"
        case translateHistoryMs = "translate_history_ms", generate, translateOut = "translate_out"
        case promptTokens = "prompt_tokens", completionTokens = "completion_tokens"
        case generateTokensPerSecond = "generate_tokens_per_second", replyLang = "reply_lang", replyLangOK = "reply_lang_ok"
        case servedInOwnLanguage = "served_in_own_language", notServedReason = "not_served_reason"
        case servedBySecondJudge = "served_by_second_judge", secondJudgeLang = "second_judge_lang"
        case server, reassignedFrom = "reassigned_from", ignoredStop = "ignored_stop", secretRedacted = "secret_redacted"
        case invalidCounts = "invalid_counts", translateInChrF = "translate_in_chrf"
    }

    /// The identity of a record for resuming, merging and pairing: item, route, repeat (and variant, and config).
    package static func key(item: String, route: Route, repeatIndex: Int, variant: String? = nil, config: String? = nil) -> String {
        "\(item)\u{1F}\(route.rawValue)\u{1F}\(repeatIndex)" + (variant.map { "\u{1F}\($0)" } ?? "") + (config.map { "\u{1F}@\($0)" } ?? "")
    }

    /// Ends the item id in a `key`.
    static let keySeparator: Character = "\u{1F}"

    /// The identity of this record.
    package var key: String { Self.key(item: itemID, route: route, repeatIndex: repeatIndex, variant: variant, config: config) }

    /// The key in words: `item 'x', variant v, config c, route direct, repeat 0`.
    package var keyDescription: String {
        "item '\(itemID)'\(variant.map { ", variant \($0)" } ?? "")\(config.map { ", config \($0)" } ?? ""), route \(route.rawValue), repeat \(repeatIndex)"
    }

    /// The first figure of this record that no request can have (a time below 0 or not finite, a count below 0), or nil.
    var impossibleFigure: String? {
        let times: [(String, Double?)] = [("total_ms", totalMs), ("ttft_ms", ttftMs), ("tpot_ms", tpotMs), ("detect_ms", detectMs),
                                          ("translate_history_ms", translateHistoryMs), ("translate_in.ms", translateIn?.ms),
                                          ("generate.ms", generate?.ms), ("translate_out.ms", translateOut?.ms)]
        if let (name, value) = times.first(where: { $0.1.map { !$0.isFinite || $0 < 0 } ?? false }) { return "\(name) is \(value!)" }
        let counts: [(String, Int?)] = [("prompt_tokens", promptTokens), ("completion_tokens", completionTokens)]
        if let (name, value) = counts.first(where: { ($0.1 ?? 0) < 0 }) { return "\(name) is \(value!)" }
        return nil
    }

    package var generateMs: Double? { generate?.ms }
    package var translateInMs: Double? { translateIn?.ms }
    package var translateOutMs: Double? { translateOut?.ms }
    /// End-to-end cost per generated token (all stages, translations included): a length-controlled view of total_ms.
    package var msPerToken: Double? { completionTokens.flatMap { $0 > 0 ? totalMs / Double($0) : nil } }
    /// Tokens of the reply the person reads: the translated reply on the pivot, else the generated one.
    package var replyTokens: Int? { (translateOut ?? generate)?.completionTokens }
    /// End-to-end cost per token of the reply the person reads: what a longer wait buys them.
    package var msPerReplyToken: Double? { replyTokens.flatMap { $0 > 0 ? totalMs / Double($0) : nil } }
    /// Whether the language the pipeline answered in was the item's true one (an abstention is answered as English).
    package var detectedRight: Bool {
        (detectedLang == "und" ? ReplyPipeline.english : LanguageCode(normalised: detectedLang)).isEquivalent(to: lang)
    }
    /// The timed requests of this record.
    package var stages: [StageTiming] { [translateIn, generate, translateOut].compactMap { $0 } }
    /// A record's requests by name, in the order they run: what the per-stage tables list.
    static var namedStages: [(name: String, path: KeyPath<GenerationRecord, StageTiming?>)] {
        [("translate-in", \.translateIn), ("generate", \.generate), ("translate-out", \.translateOut)]
    }
}

/// The order an item's routes ran in.
package enum RouteOrder: String, Sendable, Codable, CaseIterable {
    case directFirst = "direct-first", pivotFirst = "pivot-first", single
}

/// One line of diagnostics.jsonl: metadata about a stage, never message or reply text.
package struct DiagnosticEvent: Sendable, Hashable, Codable {
    package var itemID: String
    package var variant: String?
    /// The detection config, as in `GenerationRecord.config`.
    package var config: String?
    package var lang: String
    package var detectedLang: String?
    package var route: Route?
    package var stage: String
    /// `ok`, `failed`, `skipped` or `dropped`.
    package var outcome: String
    package var errorType: String?
    package var errorMessage: String?
    package var durationMs: Double?
    package var tokensIn: Int?
    package var tokensOut: Int?

    enum CodingKeys: String, CodingKey {
        case itemID = "item_id", variant, config, lang, detectedLang = "detected_lang", route, stage, outcome, errorType = "error_type"
        case errorMessage = "error_message", durationMs = "duration_ms", tokensIn = "tokens_in", tokensOut = "tokens_out"
    }
}

/// A reply a person can read (replies.jsonl): the only place text lives.
package struct ReplyRecord: Sendable, Hashable, Codable {
    package var itemID: String
    package var variant: String?
    /// The detection config, as in `GenerationRecord.config`.
    package var config: String?
    package var route: Route
    package var repeatIndex: Int
    package var lang: String
    package var outcome: GenerationRecord.Outcome
    package var reply: String

    package init(itemID: String, variant: String? = nil, config: String? = nil, route: Route, repeatIndex: Int, lang: String,
                outcome: GenerationRecord.Outcome, reply: String) {
        self.itemID = itemID
        self.variant = variant
        self.config = config
        self.route = route
        self.repeatIndex = repeatIndex
        self.lang = lang
        self.outcome = outcome
        self.reply = reply
    }

    enum CodingKeys: String, CodingKey {
        case itemID = "item_id", variant, config, route, repeatIndex = "repeat", lang, outcome, reply
    }

    /// The key of the record this reply belongs to (`GenerationRecord.key`).
    package var key: String { GenerationRecord.key(item: itemID, route: route, repeatIndex: repeatIndex, variant: variant, config: config) }
}
