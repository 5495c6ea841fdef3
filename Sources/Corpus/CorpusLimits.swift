/// Documented limits that a corpus item must respect.
package enum CorpusLimits {
    /// Longest accepted text, in characters (grapheme clusters). Longer is a validation error:
    /// LangBench measures short messages, and an overlong line usually means a broken quote.
    package static let maxTextLength = 2_000
    /// Most history turns per item.
    package static let maxHistoryTurns = 16
}
