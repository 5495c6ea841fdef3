/// Documented limits that a corpus item must respect.
public enum CorpusLimits {
    /// Longest accepted text, in characters (grapheme clusters). Longer is a validation error:
    /// LangBench measures short messages, and an overlong line usually means a broken quote.
    public static let maxTextLength = 2_000
    /// Most history turns per item.
    public static let maxHistoryTurns = 16
}
