import Support

/// Plain-text prompt templates for a base (not instruction-tuned) model: few-shot text completed
/// up to a newline. Placeholders are `{name}`; see `PromptBuilder` for each one.
package struct PromptTemplates: Sendable, Hashable, Codable {
    /// Instructions per reply language (the direct route writes them in the reply language);
    /// `default` is used for a language without its own.
    package var instructions: [String: String]
    /// The reply prompt: `{preamble}` (the locale and MUST-respond lines, then instructions),
    /// `{history}` (earlier turns, one per line) and `{message}`.
    package var reply: String
    /// How a history turn is written: `{speaker}` and `{text}`.
    package var turn: String
    /// Speaker labels per language for `{speaker}` (`user`, `assistant`); `default` as fallback.
    package var speakers: [String: Speakers]
    /// The translation prompt: `{source_language}`, `{target_language}`, `{examples}`, `{text}`.
    package var translate: String
    /// One few-shot example line pair, `{source_language}`, `{target_language}`, `{source}`, `{target}`.
    package var translateExample: String
    /// Few-shot examples keyed `<source>-<target>`, e.g. `ru-en`.
    package var translationExamples: [String: [TranslationExample]]
    /// The preamble's locale line per reply language, `{locale}`; `default` is the seed architecture's
    /// English "The person's locale is {locale}.".
    package var localeLine: [String: String]
    /// The preamble's must-respond line per reply language, `{language}` (its English name); `default` is
    /// "You MUST respond in {language}.".
    package var mustLine: [String: String]

    package static let defaultLocaleLine = "The person's locale is {locale}."
    package static let defaultMustLine = "You MUST respond in {language}."

    /// Labels for the two sides of a conversation.
    package struct Speakers: Sendable, Hashable, Codable {
        package var user: String
        package var assistant: String
    }

    /// A source sentence and its translation.
    package struct TranslationExample: Sendable, Hashable, Codable {
        package var source: String
        package var target: String
    }

    enum CodingKeys: String, CodingKey {
        case instructions, reply, turn, speakers, translate
        case translateExample = "translate_example", translationExamples = "translation_examples"
        case localeLine = "locale_line", mustLine = "must_line"
    }

    package init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        instructions = try c.decode([String: String].self, forKey: .instructions)
        reply = try c.decode(String.self, forKey: .reply)
        turn = try c.decode(String.self, forKey: .turn)
        speakers = try c.decode([String: Speakers].self, forKey: .speakers)
        translate = try c.decode(String.self, forKey: .translate)
        translateExample = try c.decode(String.self, forKey: .translateExample)
        translationExamples = try c.decodeIfPresent([String: [TranslationExample]].self, forKey: .translationExamples) ?? [:]
        localeLine = ["default": Self.defaultLocaleLine].merging(try c.decodeIfPresent([String: String].self, forKey: .localeLine) ?? [:]) { $1 }
        mustLine = ["default": Self.defaultMustLine].merging(try c.decodeIfPresent([String: String].self, forKey: .mustLine) ?? [:]) { $1 }
        // Without the message the model answers nothing the person wrote: every reply would be a guess.
        try StrictJSON.check(reply.contains("{message}"), "reply", in: decoder, "must contain {message}")
        try StrictJSON.check(translate.contains("{text}"), "translate", in: decoder, "must contain {text}")
        // A placeholder `PromptBuilder` does not fill would reach the model as it is written.
        let single: [(String, String)] = [("reply", reply), ("turn", turn), ("translate", translate), ("translate_example", translateExample)]
        let tables: [(String, [String: String])] = [("instructions", instructions), ("locale_line", localeLine), ("must_line", mustLine)]
        for (key, template) in single + tables.flatMap { name, table in table.sorted { $0.key < $1.key }.map { ("\(name).\($0.key)", $0.value) } } {
            let known = Self.placeholders[String(key.prefix { $0 != "." })] ?? []
            if let unknown = Self.placeholderNames(in: template).first(where: { !known.contains($0) }) {
                try StrictJSON.check(false, key, in: decoder, "unknown placeholder {\(unknown)}; "
                    + (known.isEmpty ? "this text takes no placeholders" : "known: " + known.map { "{\($0)}" }.joined(separator: ", ")))
            }
        }
    }

    /// The placeholders `PromptBuilder` fills in each template (instructions take none).
    static let placeholders: [String: [String]] = [
        "reply": ["preamble", "history", "user", "assistant", "message"], "turn": ["speaker", "text"],
        "translate": ["source_language", "target_language", "examples", "text"],
        "translate_example": ["source_language", "target_language", "source", "target"],
        "locale_line": ["locale"], "must_line": ["language"],
    ]

    /// The names of `{name}` placeholders in `template` (letters, digits and `_`; other braces are text).
    static func placeholderNames(in template: String) -> [String] {
        var names: [String] = []
        var current: String?
        for character in template {
            if character == "{" {
                current = ""
            } else if character == "}", let name = current, !name.isEmpty {
                names.append(name)
                current = nil
            } else if current != nil {
                current = character.isASCII && (character.isLetter || character.isNumber || character == "_") ? current! + String(character) : nil
            }
        }
        return names
    }
}
