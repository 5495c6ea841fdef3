/// Languages written in more than one script: a keyword list in one script must also match the other.
/// Serbian is written in Cyrillic and Latin alike (a Latin-script crisis message used to go to the
/// model); its transliteration is one-to-one, and people often type Latin without diacritics.
extension CrisisCheck {
    /// Every spelling of `keyword` a `language` speaker may type: itself, and for Serbian its Latin
    /// form with and without diacritics.
    static func spellings(of keyword: String, language: String) -> [String] {
        guard language == "sr" else { return [keyword] }
        let latin = keyword.map { serbianLatin[$0] ?? String($0) }.joined()
        let plain = latin.map { withoutDiacritics[$0] ?? String($0) }.joined()
        return Array(Set([keyword, latin, plain])).sorted()
    }

    static let serbianLatin: [Character: String] = [
        "а": "a", "б": "b", "в": "v", "г": "g", "д": "d", "ђ": "đ", "е": "e", "ж": "ž", "з": "z", "и": "i", "ј": "j",
        "к": "k", "л": "l", "љ": "lj", "м": "m", "н": "n", "њ": "nj", "о": "o", "п": "p", "р": "r", "с": "s", "т": "t",
        "ћ": "ć", "у": "u", "ф": "f", "х": "h", "ц": "c", "ч": "č", "џ": "dž", "ш": "š",
    ]

    static let withoutDiacritics: [Character: String] = ["đ": "dj", "ž": "z", "ć": "c", "č": "c", "š": "s"]
}
