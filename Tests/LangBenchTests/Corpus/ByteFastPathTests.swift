import Testing
@testable import LangBench

/// The byte-level shortcuts of validation and TSV splitting give what the Character definitions give,
/// on the strings where the two could part: whitespace beyond ASCII, combining marks, Prepend scalars,
/// CR LF.
struct ByteFastPathTests {
    static let tricky = ["", " ", "a", " a", "a ", "ab", "\t", "\r\n", "a\r\n", "\u{00A0}x", "x\u{00A0}", "\u{3000}", "\u{85}x",
                         "a\u{0301}", "e\u{0301} ", " \u{0301}", "\u{0600}a", "\u{0600} ", "a\u{0600}", "👋🏽", "x\u{200D}", "привет", "你好 "]

    /// Strings made of the tricky ones and a pool of scalars, joined in every order of two.
    static var strings: [String] {
        let pool = ["a", " ", "\u{0301}", "\u{0600}", "\u{00A0}", "\r", "\n", "я", "\u{200D}", "👋", "~", "!"]
        return tricky + pool.flatMap { a in pool.flatMap { b in pool.map { c in a + b + c } } }
    }

    @Test func trimmedEqualsTrimmingCharacters() {
        for text in Self.strings {
            let expected = String(text.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
            #expect(ItemValidator.trimmed(text) == expected, "\(Array(text.unicodeScalars))")
        }
    }

    @Test func isBlankEqualsEveryCharacterBeingWhitespace() {
        for text in Self.strings {
            #expect(ItemValidator.isBlank(text) == text.allSatisfy(\.isWhitespace), "\(Array(text.unicodeScalars))")
        }
    }

    /// Splitting a TSV line on tab bytes equals splitting its Characters on tabs, empty cells kept.
    @Test func tabCellsEqualSplittingCharacters() {
        for text in Self.strings + ["\t", "a\tb", "\ta\t\t", "x\u{0301}\tя\t", "\u{0600}\ta", "\t\u{0301}"] {
            let expected = text.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            #expect(DelimitedReader.tabCells(text) == expected, "\(Array(text.unicodeScalars))")
        }
    }
}
