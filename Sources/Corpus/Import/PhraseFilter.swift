import Foundation

/// Which translated strings become detection items: short phrases written in their language's own script, with no
/// placeholder, markup, digit or English copy in them. Each rule is a named option of `corpus import`.
package struct PhraseFilter: Sendable, Equatable {
    /// Longest phrase in words (`--max-words`); Japanese and Chinese are measured in characters instead.
    package var maxWords = 6
    /// Longest Japanese or Chinese phrase in characters (`--max-characters`).
    package var maxCharacters = 20
    /// Characters that mark a placeholder, markup, a shortcut or a path (`--reject-characters`).
    package var rejectCharacters: Set<Character> = Set("{}[]<>%$&_\\/@#=|^*+\"`")
    /// gettext contexts and Fluent ids starting with one of these are skipped (`--skip-context`): LibreOffice
    /// Calc's function help, jargon no user types to an app.
    package var skipContexts = ["SC_OPCODE", "ANALYSIS_", "DATE_FUNC", "PRICING_"]

    package init() {}

    /// Why `string` is not a phrase of `language`, or nil when it is; `english` holds the source language's strings.
    package func rejection(_ string: LocalisedString, language: LanguageCode, english: Set<String>) -> String? {
        let text = Self.cleaned(string.text)
        if text.isEmpty { return "empty" }
        if skipContexts.contains(where: { string.context.hasPrefix($0) }) { return "context" }
        if text.contains(where: { rejectCharacters.contains($0) }) { return "placeholder or markup" }
        if text.unicodeScalars.contains(where: { [.decimalNumber, .otherNumber].contains($0.properties.generalCategory) }) { return "digit" }
        let script = PhraseScript(language)
        if !text.unicodeScalars.allSatisfy({ !$0.properties.isAlphabetic || script.contains($0) }) { return "mixed script" }
        if script.countsCharacters ? text.count > maxCharacters : text.split(separator: " ").count > maxWords { return "too long" }
        if language.language != "en", text == string.english || english.contains(text.lowercased()) { return "English copy" }
        let letters = text.filter(\.isLetter)
        if letters.count > 1, letters.uppercased() == letters, letters.lowercased() != letters { return "all capitals" }
        return nil
    }

    /// The text as an item holds it: LibreOffice's `~` shortcut marks removed, a trailing ellipsis or colon dropped,
    /// runs of spaces made one.
    package static func cleaned(_ text: String) -> String {
        var out = text.replacingOccurrences(of: "~", with: "")
        for suffix in ["…", "...", ":"] where out.hasSuffix(suffix) { out.removeLast(suffix.count) }
        return out.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}

/// The letters a language is written in, as far as the filter needs: Latin, Cyrillic, Greek, Han, kana, Hangul.
package struct PhraseScript: Sendable {
    let ranges: [ClosedRange<UInt32>]
    /// Japanese and Chinese: a phrase's length is its characters.
    package let countsCharacters: Bool

    package init(_ language: LanguageCode) {
        let han: [ClosedRange<UInt32>] = [0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0x3005...0x3007]
        switch language.languageAndScript.split(separator: "-").last.map(String.init) ?? "" {
        case "Cyrl": ranges = [0x0400...0x052F]; countsCharacters = false
        case "Grek": ranges = [0x0370...0x03FF, 0x1F00...0x1FFF]; countsCharacters = false
        case "Hans", "Hant": ranges = han; countsCharacters = true
        case "Jpan": ranges = han + [0x3040...0x30FF, 0x31F0...0x31FF]; countsCharacters = true
        case "Kore": ranges = [0xAC00...0xD7AF, 0x1100...0x11FF, 0x3130...0x318F]; countsCharacters = false
        default: ranges = [0x0041...0x005A, 0x0061...0x007A, 0x00C0...0x024F, 0x1E00...0x1EFF]; countsCharacters = false
        }
    }

    func contains(_ scalar: Unicode.Scalar) -> Bool { ranges.contains { $0.contains(scalar.value) } }
}
