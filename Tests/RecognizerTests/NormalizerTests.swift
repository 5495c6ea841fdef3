import Testing
@testable import Recognizer

@Suite("Text normalisation")
struct NormalizerTests {
    /// The tokens of a text as strings.
    static func words(_ text: String) -> [String] {
        let n = TextNormalizer.normalize(text)
        return n.tokens.map { String(String.UnicodeScalarView(n.scalars[$0.range].compactMap(Unicode.Scalar.init))) }
    }

    @Test("normalises like the training lists", arguments: [
        ("Straße", ["strasse"]),
        ("STRASSE", ["strasse"]),
        ("ПРИВЕТ, Мир!", ["привет", "мир"]),
        ("l’homme d'état", ["l'homme", "d'état"]),
        ("сімʼя", ["сім'я"]),
        ("'quoted'", ["quoted"]),
        ("rock'n'roll", ["rock'n'roll"]),
        ("ΣΟΦΟΣ", ["σοφοσ"]),
        ("İstanbul", ["istanbul"]),
        ("e\u{301}te\u{301}", ["été"]),
        ("и\u{306}од", ["йод"]),
        ("see https://example.com/x and www.example.org", ["see", "and"]),
        ("mail me@example.com now", ["mail", "now"]),
        ("<a href=\"x\">link</a> &amp; more", ["link", "more"]),
        ("hi @someone #tag", ["hi", "tag"]),
        ("Москва2024city", ["москва", "city"]),
        ("日本語とEnglish", ["日本語と", "english"]),
        ("123 4.5 !!", []),
    ])
    func normalises(_ text: String, _ expected: [String]) {
        #expect(Self.words(text) == expected)
    }

    @Test("scripts of letters")
    func scripts() {
        let n = TextNormalizer.normalize("Ab Бв 日本 한국 Γα")
        #expect(n.tokens.map(\.script) == [.latin, .cyrillic, .cjk, .hangul, .greek])
    }
}
