/// Plain-text prompt templates for a base (not instruction-tuned) model: few-shot text completed
/// up to a newline. Placeholders are `{name}`; see `PromptBuilder` for each one.
public struct PromptTemplates: Sendable, Hashable, Codable {
    /// Instructions per reply language (the direct route writes them in the reply language);
    /// `default` is used for a language without its own.
    public var instructions: [String: String]
    /// The reply prompt: `{preamble}` (the locale and MUST-respond lines, then instructions),
    /// `{history}` (earlier turns, one per line) and `{message}`.
    public var reply: String
    /// How a history turn is written: `{speaker}` and `{text}`.
    public var turn: String
    /// Speaker labels per language for `{speaker}` (`user`, `assistant`); `default` as fallback.
    public var speakers: [String: Speakers]
    /// The translation prompt: `{source_language}`, `{target_language}`, `{examples}`, `{text}`.
    public var translate: String
    /// One few-shot example line pair, `{source_language}`, `{target_language}`, `{source}`, `{target}`.
    public var translateExample: String
    /// Few-shot examples keyed `<source>-<target>`, e.g. `ru-en`.
    public var translationExamples: [String: [TranslationExample]]

    /// Labels for the two sides of a conversation.
    public struct Speakers: Sendable, Hashable, Codable {
        public var user: String
        public var assistant: String
    }

    /// A source sentence and its translation.
    public struct TranslationExample: Sendable, Hashable, Codable {
        public var source: String
        public var target: String
    }

    enum CodingKeys: String, CodingKey {
        case instructions, reply, turn, speakers, translate
        case translateExample = "translate_example", translationExamples = "translation_examples"
    }
}
