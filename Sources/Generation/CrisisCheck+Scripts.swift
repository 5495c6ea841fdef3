/// Languages written in more than one script: a keyword list in one script must also match the other.
/// Serbian is written in Cyrillic and Latin alike (a Latin-script crisis message used to go to the
/// model); its transliteration is one-to-one, and people often type Latin without diacritics. Kazakh
/// has an official Latin alphabet (2021) besides Cyrillic, and online it is often typed in plain ASCII
/// Latin (ө → o, қ → k or q, ш → sh).
extension CrisisCheck {
    /// Every spelling of `keyword` a `language` speaker may type: itself, for Serbian its Latin form
    /// with and without diacritics, for Kazakh its official Latin form and the plain ASCII forms.
    static func spellings(of keyword: String, language: String) -> [String] {
        func transliterated(_ table: [Character: String], _ text: String) -> String {
            text.map { table[$0] ?? String($0) }.joined()
        }
        switch language {
        case "sr":
            let latin = transliterated(serbianLatin, keyword)
            return Array(Set([keyword, latin, transliterated(withoutDiacritics, latin)])).sorted()
        case "kk":
            let plain = transliterated(kazakhPlain, keyword)
            return Array(Set([keyword, transliterated(kazakhLatin, keyword), plain,
                              transliterated(kazakhPlain.merging(["қ": "q"]) { $1 }, keyword)])).sorted()
        default:
            return [keyword]
        }
    }

    static let serbianLatin: [Character: String] = [
        "а": "a", "б": "b", "в": "v", "г": "g", "д": "d", "ђ": "đ", "е": "e", "ж": "ž", "з": "z", "и": "i", "ј": "j",
        "к": "k", "л": "l", "љ": "lj", "м": "m", "н": "n", "њ": "nj", "о": "o", "п": "p", "р": "r", "с": "s", "т": "t",
        "ћ": "ć", "у": "u", "ф": "f", "х": "h", "ц": "c", "ч": "č", "џ": "dž", "ш": "š",
    ]

    static let withoutDiacritics: [Character: String] = ["đ": "dj", "ž": "z", "ć": "c", "č": "c", "š": "s"]

    /// The official Kazakh Latin alphabet of 2021, lowercase; its dotless ı (for і) is written i, as
    /// `normalise` folds ı to i in messages.
    static let kazakhLatin: [Character: String] = [
        "а": "a", "ә": "ä", "б": "b", "в": "v", "г": "g", "ғ": "ğ", "д": "d", "е": "e", "ё": "io", "ж": "j", "з": "z",
        "и": "i", "й": "i", "к": "k", "қ": "q", "л": "l", "м": "m", "н": "n", "ң": "ñ", "о": "o", "ө": "ö", "п": "p",
        "р": "r", "с": "s", "т": "t", "у": "u", "ұ": "ū", "ү": "ü", "ф": "f", "х": "h", "һ": "h", "ц": "ts", "ч": "ch",
        "ш": "ş", "щ": "şş", "ъ": "", "ы": "y", "і": "i", "ь": "", "э": "e", "ю": "iu", "я": "ia",
    ]

    /// Kazakh typed in plain ASCII Latin, the informal transliteration of chats.
    static let kazakhPlain: [Character: String] = kazakhLatin.merging([
        "ә": "a", "ғ": "g", "ж": "zh", "ң": "n", "ө": "o", "ұ": "u", "ү": "u", "ш": "sh", "щ": "sh",
        "ё": "yo", "ю": "yu", "я": "ya",
    ]) { $1 }
}
