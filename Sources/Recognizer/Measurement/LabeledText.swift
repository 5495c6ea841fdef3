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
}
