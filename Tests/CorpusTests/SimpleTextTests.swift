@testable import Support
@testable import Corpus
import Testing

/// The byte-table word count equals the Character walk wherever it answers, and hands every text it
/// cannot be sure of to the walk.
struct SimpleTextTests {
    static func characterWalk(_ text: String) -> Int { LengthBucket.characterWordCount(text) }

    @Test(arguments: ["", " ", "a", "a b", "  a  b  ", "Привет, мир!", "сім'я", "- -", "1 2 3", "a\r\nb", "a\u{85}b", "a\u{A0}b",
                      "ǅemal", "Ελληνικά λέξη", "Հայերեն բառ", "x\u{301} y", " \u{345}", "\u{2028}a", "日本 語", "a 👋", "tab\there"])
    func answersLikeTheCharacterWalk(_ text: String) {
        #expect((SimpleText.wordCount(text) ?? Self.characterWalk(text)) == Self.characterWalk(text))
        #expect(LengthBucket.wordCount(text) == Self.characterWalk(text))
    }

    @Test func answersForPlainCyrillicAndLatinAndNotForMarksOrOtherScripts() {
        #expect(SimpleText.wordCount("Привет, мир!") == 2)
        #expect(SimpleText.wordCount("x\u{301} y") == nil, "a combining mark joins the Character before it")
        #expect(SimpleText.wordCount("日本 語") == nil)
    }

    /// Random text over every scalar below U+0600 (combining marks, controls, CR/LF included, then
    /// some beyond): the table's count is the walk's whenever it gives one.
    @Test func randomTextAgreesWithTheCharacterWalk() {
        var generator = SplitMix64(seed: 16)
        var answered = 0
        for _ in 0..<20_000 {
            let length = Int.random(in: 0...12, using: &generator)
            var scalars = String.UnicodeScalarView()
            for _ in 0..<length {
                let value: UInt32 = switch Int.random(in: 0..<10, using: &generator) {
                case 0..<3: UInt32.random(in: 0...0x7F, using: &generator)
                case 3: [0x20, 0x09, 0x0A, 0x0D, 0x85, 0xA0][Int.random(in: 0..<6, using: &generator)]
                case 9: UInt32.random(in: 0x590...0x5FF, using: &generator)
                default: UInt32.random(in: 0x80...0x58F, using: &generator)
                }
                if let scalar = Unicode.Scalar(value) { scalars.append(scalar) }
            }
            let text = String(scalars)
            if let count = SimpleText.wordCount(text) {
                answered += 1
                #expect(count == Self.characterWalk(text), "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
            }
        }
        #expect(answered > 1_000, "the table answers for most text without marks")
    }
}
