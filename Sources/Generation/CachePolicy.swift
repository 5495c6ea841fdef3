/// What the server's prompt cache holds when a timed request starts: the state every timing is
/// measured from, sent on every request and echoed into the report.
package enum CachePolicy: String, Sendable, Codable, CaseIterable {
    /// Nothing reused: every request evaluates its whole prompt (`cache_prompt: false`). The default
    /// for timing, checked per request with the server's own `timings.prompt_n` and `cache_n`.
    case cold
    /// The stage's instruction prefix (everything up to the prompt's last blank line) is evaluated
    /// first by an untimed request, so the timed request pays only for the message and history.
    case warmPrefix = "warm-prefix"

    /// The `cache_prompt` value timed requests are sent with.
    package var cachePrompt: Bool { self == .warmPrefix }
}
