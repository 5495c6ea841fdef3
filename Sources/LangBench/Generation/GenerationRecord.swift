/// One item through one route (one repeat): outcome, reason and every timing. Never holds text.
public struct GenerationRecord: Sendable, Hashable, Codable {
    public enum Outcome: String, Sendable, Codable { case model, fallback }
    /// What happened to the conversation history on the pivot.
    public enum HistoryUse: String, Sendable, Codable {
        case none, used, dropped
    }

    public var itemID: String
    public var lang: LanguageCode
    public var detectedLang: String
    public var route: Route
    public var repeatIndex: Int
    public var outcome: Outcome
    public var fallbackReason: FallbackReason?
    public var errorMessage: String?
    public var history: HistoryUse
    public var totalMs: Double
    /// Until the first token of the reply the user reads (for the pivot, of the translated reply).
    public var ttftMs: Double?
    public var detectMs: Double
    public var translateInMs: Double?
    public var translateHistoryMs: Double?
    public var generateMs: Double?
    /// Time to first token of the generation stage alone, measured by the client.
    public var generateTTFTMs: Double?
    public var translateOutMs: Double?
    /// Prompt and completion tokens summed over every request of this item.
    public var promptTokens: Int
    public var completionTokens: Int
    /// Tokens/s of the generation stage from the server's counts and the client's stream timing.
    public var generateTokensPerSecond: Double?
    public var replyLang: String?
    public var replyLangOK: Bool?

    enum CodingKeys: String, CodingKey {
        case itemID = "item_id", lang, detectedLang = "detected_lang", route, repeatIndex = "repeat", outcome
        case fallbackReason = "fallback_reason", errorMessage = "error_message", history, totalMs = "total_ms", ttftMs = "ttft_ms"
        case detectMs = "detect_ms", translateInMs = "translate_in_ms", translateHistoryMs = "translate_history_ms"
        case generateMs = "generate_ms", generateTTFTMs = "generate_ttft_ms", translateOutMs = "translate_out_ms"
        case promptTokens = "prompt_tokens", completionTokens = "completion_tokens"
        case generateTokensPerSecond = "generate_tokens_per_second", replyLang = "reply_lang", replyLangOK = "reply_lang_ok"
    }

    /// The identity of a record for resuming and merging: item, route, repeat.
    static func key(item: String, route: Route, repeatIndex: Int) -> String {
        "\(item)\u{1F}\(route.rawValue)\u{1F}\(repeatIndex)"
    }

    /// The identity of this record.
    public var key: String { Self.key(item: itemID, route: route, repeatIndex: repeatIndex) }
}

/// One line of diagnostics.jsonl: metadata about a stage, never message or reply text.
public struct DiagnosticEvent: Sendable, Hashable, Codable {
    public var itemID: String
    public var lang: String
    public var detectedLang: String?
    public var route: Route?
    public var stage: String
    /// `ok`, `failed`, `skipped` or `dropped`.
    public var outcome: String
    public var errorType: String?
    public var errorMessage: String?
    public var durationMs: Double?
    public var tokensIn: Int?
    public var tokensOut: Int?

    enum CodingKeys: String, CodingKey {
        case itemID = "item_id", lang, detectedLang = "detected_lang", route, stage, outcome, errorType = "error_type"
        case errorMessage = "error_message", durationMs = "duration_ms", tokensIn = "tokens_in", tokensOut = "tokens_out"
    }
}

/// A reply a person can read (replies.jsonl): the only place text lives.
public struct ReplyRecord: Sendable, Hashable, Codable {
    public var itemID: String
    public var route: Route
    public var repeatIndex: Int
    public var lang: String
    public var outcome: GenerationRecord.Outcome
    public var reply: String

    enum CodingKeys: String, CodingKey {
        case itemID = "item_id", route, repeatIndex = "repeat", lang, outcome, reply
    }
}
