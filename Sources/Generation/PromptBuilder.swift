import Foundation
import Corpus

/// Fills the profile's templates. The reply preamble follows the seed architecture: "The person's
/// locale is <id>." (left out for en-US), then "You MUST respond in <language>.", then the
/// instructions written in the reply language.
package struct PromptBuilder: Sendable {
    package var templates: PromptTemplates

    package init(templates: PromptTemplates) {
        self.templates = templates
    }

    /// The reply prompt for a message in `language` (the message's language on the direct route,
    /// English on the pivot).
    package func reply(language: LanguageCode, message: String, history: [Turn]) -> String {
        let speakers = Self.entry(templates.speakers, for: language) ?? PromptTemplates.Speakers(user: "User", assistant: "Companion")
        let historyText = history.map { turn in
            fill(templates.turn, ["speaker": turn.role == .user ? speakers.user : speakers.assistant, "text": Self.oneLine(turn.text)])
        }.joined()
        return fill(templates.reply, ["preamble": preamble(language), "history": historyText, "user": speakers.user,
                                      "assistant": speakers.assistant, "message": Self.oneLine(message)])
    }

    package func preamble(_ language: LanguageCode) -> String {
        let locale = Self.localeIdentifier(language)
        var lines: [String] = []
        if locale != "en-US" {
            lines.append(fill(Self.entry(templates.localeLine, for: language) ?? PromptTemplates.defaultLocaleLine, ["locale": locale]))
        }
        lines.append(fill(Self.entry(templates.mustLine, for: language) ?? PromptTemplates.defaultMustLine, ["language": language.englishName]))
        lines.append(Self.entry(templates.instructions, for: language) ?? "")
        return lines.joined(separator: "\n")
    }

    /// A translation prompt with the few-shot examples for the pair, if any.
    package func translation(_ text: String, from source: LanguageCode, to target: LanguageCode) -> String {
        let names = ["source_language": source.englishName, "target_language": target.englishName]
        let examples = (templates.translationExamples["\(source.language)-\(target.language)"] ?? []).map { example in
            fill(templates.translateExample, names.merging(["source": example.source, "target": example.target]) { $1 })
        }.joined()
        return fill(templates.translate, names.merging(["examples": examples, "text": Self.oneLine(text)]) { $1 })
    }

    /// The entry for the full code (`zh-Hant`), else its language (`zh`), else `default`: a variant written
    /// for one script or region must not be shadowed by the plain language's entry.
    static func entry<Value>(_ table: [String: Value], for language: LanguageCode) -> Value? {
        table[language.identifier] ?? table[language.language] ?? table["default"]
    }

    /// `de` → `de-DE`: the language with its likely region, as a device locale would read.
    static func localeIdentifier(_ language: LanguageCode) -> String {
        if language.identifier.contains("-") { return language.identifier }
        let region = Locale.Language(identifier: language.identifier).maximalIdentifier.split(separator: "-").last
        guard let region, region.count == 2 || (region.count == 3 && region.allSatisfy(\.isNumber)) else { return language.identifier }
        return "\(language.identifier)-\(region)"
    }

    /// Prompts are line-based (generation stops at a newline), so a message's own newlines become spaces.
    static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).joined(separator: " ")
    }

    /// One left-to-right pass, so text that happens to contain `{message}` is never expanded again.
    private func fill(_ template: String, _ values: [String: String]) -> String {
        var out = ""
        var rest = template[...]
        while let open = rest.firstIndex(of: "{") {
            out += rest[..<open]
            let afterOpen = rest.index(after: open)
            if let close = rest[afterOpen...].firstIndex(of: "}"), let value = values[String(rest[afterOpen..<close])] {
                out += value
                rest = rest[rest.index(after: close)...]
            } else {
                out += "{"
                rest = rest[afterOpen...]
            }
        }
        return out + rest
    }
}
