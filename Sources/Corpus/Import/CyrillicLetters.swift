/// The Cyrillic slice tags `Corpora/README.md` defines: `unique-letter` when a text holds a letter that, among ru, uk,
/// be, bg, mk, sr and kk, belongs to exactly one of them; `no-unique-letter` otherwise.
package enum CyrillicLetters {
    /// Letters found in exactly one of the seven languages.
    package static let unique: [String: Set<Character>] = [
        "uk": Set("їєґЇЄҐ"), "be": Set("ўЎ"), "mk": Set("ѓќѕЃЌЅ"), "sr": Set("ђћЂЋ"), "kk": Set("әғқңөұүһӘҒҚҢӨҰҮҺ"),
    ]
    static let anyUnique = unique.values.reduce(into: Set<Character>()) { $0.formUnion($1) }
    package static let languages: Set<String> = ["ru", "uk", "be", "bg", "mk", "sr", "kk"]

    /// The tag for `text` when `language` is one of the seven, else nil.
    package static func tag(_ text: String, language: LanguageCode) -> String? {
        guard languages.contains(language.language) else { return nil }
        return text.contains(where: anyUnique.contains) ? "unique-letter" : "no-unique-letter"
    }
}
