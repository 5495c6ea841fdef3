/// A text with its true language and the slice it belongs to (e.g. `single-words`, `word-pairs`,
/// `sentences`), as measured by `AccuracyEvaluation`.
public struct LabeledText: Sendable, Hashable {
    public var language: String
    public var text: String
    public var slice: String

    public init(language: String, text: String, slice: String) {
        self.language = language
        self.text = text
        self.slice = slice
    }

    /// The length slice of a text by its whitespace-separated words: `single-words` (1), `word-pairs` (2–3)
    /// or `sentences` (4 or more) — the rule used for corpora without length tags.
    public static func lengthSlice(of text: String) -> String {
        let words = text.split(whereSeparator: \.isWhitespace).count
        return words <= 1 ? "single-words" : (words <= 3 ? "word-pairs" : "sentences")
    }
}
