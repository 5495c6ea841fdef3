import Foundation

/// Which of the model's languages a caller's code means (our rule, the same in every command):
/// an exact code wins; otherwise codes match on language and *likely* script (CLDR likely subtags), so a
/// language without a script means that language in its usual script — `zh` ≡ `zh-Hans`, `sr` ≡ `sr-Cyrl`
/// (the model's `sr`), `zh-TW` → `zh-Hant`, `pt-BR` → `pt` — while `sr-Latn` matches nothing this model has.
extension LanguageModel {
    /// The model's code for `code`, or nil when the model cannot produce that language.
    public func language(matching code: String) -> String? {
        if let known = languageByScriptKey[code] { return known }  // exact codes and common aliases: no Locale lookup
        return languageByScriptKey[Self.scriptKey(code)]
    }

    /// Whether the model can return the language `code` means.
    public func supports(_ code: String) -> Bool { language(matching: code) != nil }

    /// `language-Script` with the likely script filled in, e.g. `zh-Hans` for `zh`, `sr-Cyrl` for `sr`.
    static func scriptKey(_ code: String) -> String {
        let cleaned = code.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "_", with: "-")
        let language = Locale.Language(identifier: cleaned)
        let primary = language.languageCode?.identifier ?? cleaned.lowercased()
        let script = language.script?.identifier ?? ""
        return script.isEmpty ? primary : "\(primary)-\(script)"
    }

    /// Each model language under its own code, its script key and its bare language code when that
    /// language's likely script is the one the model has; the first language wins when two share a key.
    static func scriptKeys(_ languages: [String]) -> [String: String] {
        var keys: [String: String] = [:]
        for code in languages { keys[code] = code }
        for code in languages {
            let key = scriptKey(code)
            let primary = String(key.prefix { $0 != "-" })
            for alias in [key, primary] where keys[alias] == nil && scriptKey(alias) == key { keys[alias] = code }
        }
        return keys
    }
}
