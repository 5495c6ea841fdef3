@testable import Support
import Foundation
@testable import Corpus
import Testing

/// The byte-level shortcuts of validation and TSV splitting give what the Character definitions give,
/// on the strings where the two could part: whitespace beyond ASCII, combining marks, Prepend scalars,
/// CR LF.
struct ByteFastPathTests {
    static let tricky = ["", " ", "a", " a", "a ", "ab", "\t", "\r\n", "a\r\n", "\u{00A0}x", "x\u{00A0}", "\u{3000}", "\u{85}x",
                         "a\u{0301}", "e\u{0301} ", " \u{0301}", "\u{0600}a", "\u{0600} ", "a\u{0600}", "👋🏽", "x\u{200D}", "привет", "你好 ",
                         "\u{0}", "\u{200B}", " \u{200B}\u{200B} ", "\u{FEFF}", "\u{202E}", "\u{0}a", "\u{200B}a", "\u{E0001}", "\u{3164}"]

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

    /// Blank: every Character whitespace or made only of scalars that draw nothing (NUL, zero-width, BOM, bidi controls).
    @Test func isBlankEqualsEveryCharacterBeingWhitespaceOrInvisible() {
        func invisible(_ scalar: Unicode.Scalar) -> Bool {
            [.control, .format].contains(scalar.properties.generalCategory) || scalar.properties.isDefaultIgnorableCodePoint
        }
        for text in Self.strings {
            let expected = text.allSatisfy { $0.isWhitespace || $0.unicodeScalars.allSatisfy(invisible) }
            #expect(ItemValidator.isBlank(text) == expected, "\(Array(text.unicodeScalars))")
        }
    }

    /// Exhaustive over every scalar: a text whose first byte `canStartBlank` rejects starts with a scalar that
    /// is neither whitespace nor invisible, so the byte-level `isBlank` may answer "not blank" from that byte.
    @Test func blankLeadBytesCoverEveryBlankScalar() {
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value), scalar.properties.isWhitespace || ItemValidator.isInvisible(scalar) else { continue }
            #expect(TSVBytes.canStartBlank(Array(String(scalar).utf8)[0]), "U+\(String(value, radix: 16))")
        }
    }

    /// Splitting a TSV line on tab bytes equals splitting its Characters on tabs, empty cells kept.
    @Test func tabCellsEqualSplittingCharacters() {
        for text in Self.strings + ["\t", "a\tb", "\ta\t\t", "x\u{0301}\tя\t", "\u{0600}\ta", "\t\u{0301}"] {
            let expected = text.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            #expect(DelimitedReader.tabCells(text) == expected, "\(Array(text.unicodeScalars))")
        }
    }

    /// A TSV block read straight from its bytes (`PlainTSVRows`) gives what reading it line by line gives,
    /// whenever it reads it at all; and it does read every block of plain rows. Rows are drawn (seeded)
    /// from cells that are fine and cells that are not in every way a row can be wrong, under headers
    /// with columns in any order, extra columns, a history column and a repeated column.
    @Test(arguments: ["id\tlang\ttext\ttags", "id\tlang\ttext", "text\tid\tnote\tlang\ttags\thistory", "id\tlang\ttext\tid"])
    func plainTSVRowsEqualReadingLineByLine(_ header: String) throws {
        let columns = header.split(separator: "\t").map(String.init)
        let pools: [String: [[UInt8]]] = [
            "id": ["a1", "b2", "a1", "x-9", " a2", "a3 ", "", "\u{00A0}x", "é", "x\u{0301}", "\u{0600}a"].map { Array($0.utf8) } + [[0x61, 0xFF]],
            "lang": ["ru", "en", "uk", " uk", "RUS", "pt-PT", "xx", "", "en\u{0301}"].map { Array($0.utf8) } + [[0x72, 0xC0]],
            "text": (Self.tricky + ["слово", "Hello there", String(repeating: "я", count: 1_001), String(repeating: "a", count: 2_001),
                                    String(repeating: "e\u{0301}", count: 1_500)]).map { Array($0.utf8) } + [[0xE2, 0x82]],
            "tags": ["", "t", "synthetic", "a;b", " t ", "b;a;a", ";", "\u{00A0}"].map { Array($0.utf8) } + [[0xED, 0xA0, 0x80]],
            "history": ["", "", "[]", "[{\"role\":\"user\",\"text\":\"hi\"}]", "x"].map { Array($0.utf8) },
            "note": ["", "n", "ß"].map { Array($0.utf8) } + [[0xF8]],
        ]
        // A row of cells that are all fine, for blocks that must be read from their bytes.
        let plain: [String: [[UInt8]]] = ["id": ["a1", "b2", "x-9"], "lang": ["ru", "en", "RUS", " uk"], "text": ["слово", "Hello there", "e\u{0301}"],
                                          "tags": ["", "t", "b;a;a", " t "], "history": [""], "note": ["", "ß"]].mapValues { $0.map { Array($0.utf8) } }
        let ends: [[UInt8]] = [[0x0A], [0x0D, 0x0A]]
        var random = SplitMix64(seed: 7)
        func pick<T>(_ values: [T]) -> T { values[Int(random.next() % UInt64(values.count))] }
        func row(_ pools: [String: [[UInt8]]], wrongCells: Bool) -> [UInt8] {
            var bytes: [UInt8] = []
            for (k, column) in columns.enumerated() {
                if k > 0 { bytes.append(0x09) }
                bytes += pick(pools[column]!)
            }
            // Now and then a blank line, or (in rows that may be wrong) a trailing empty cell or a missing cell.
            switch random.next() % 20 {
            case 0: bytes = []
            case 1 where wrongCells: bytes.append(0x09)
            case 2 where wrongCells: bytes = Array(bytes.prefix { $0 != 0x09 })
            default: break
            }
            return bytes + pick(ends)
        }
        var readFromBytes = 0
        for round in 0..<3_000 {
            let isPlain = round % 3 == 0
            var block: [UInt8] = []
            for _ in 0..<(1 + random.next() % 4) { block += row(isPlain ? plain : pools, wrongCells: !isPlain) }
            if random.next() % 4 == 0, block.last == 0x0A { block.removeLast() }  // the file's last line, without a newline
            let (fast, ids, slow) = try Self.readBothWays(header: header, block: Data(block))
            if isPlain { #expect(fast != nil, "plain rows not read from bytes: \(String(decoding: block, as: UTF8.self))") }
            let text = String(decoding: block, as: UTF8.self)
            #expect((ids == nil) == (fast == nil), "\(text)")
            guard let fast else { continue }
            readFromBytes += 1
            #expect(ids?.ids == IDRun(fast.items.map(\.id)) && ids?.items == [], "\(text)")
            #expect(ids?.sawText == fast.sawText && ids?.sawRecordOrProblem == fast.sawRecordOrProblem, "\(text)")
            #expect(fast.items == slow.items, "\(text)")
            #expect(fast.problems.isEmpty && slow.problems.isEmpty, "\(text)")
            #expect(fast.skipped == slow.skipped && fast.sawText == slow.sawText && fast.sawRecordOrProblem == slow.sawRecordOrProblem, "\(text)")
        }
        #expect(readFromBytes >= 900)
    }

    /// A TSV's first block, read as its header and then the rest (plain rows straight from their bytes),
    /// gives what reading the whole block line by line gives: with a BOM, CRLF ends, a blank or wrong
    /// first line, a header alone, rows that are plain and rows that are not.
    @Test(arguments: ["id\tlang\ttext\ttags\n", "\u{FEFF}id\tlang\ttext\r\n", "\nid\tlang\ttext\n", "id\tlang\n", "id\tlang\ttext\tid\n", "id\tlang\ttext"])
    func firstBlockEqualsReadingLineByLine(_ head: String) throws {
        let bodies = ["", "a1\tru\tслово\n", "a1\tru\tслово\tt\nb2\ten\tHello\t\n\nc3\tuk\tдім", "a1\txx\tслово\n a2\tru\t \n",
                      "a1\tru\tслово\tt\textra\n", "a1\tru\n"]
        for body in bodies {
            let block = LineBlock(data: Data((head + body).utf8), firstLine: 1, fileStart: true)
            var cut = RecordReader(file: CorpusFile(path: "f.tsv"), format: .tsv)
            var whole = cut
            let fast = BlockReader.read(block, path: "f.tsv", with: &cut, codes: [:])
            let slow = BlockReader.read(TextLines(block), path: "f.tsv", with: &whole, codes: [:])
            let text = head + body
            #expect(fast.items == slow.items, "\(text)")
            #expect(fast.problems == slow.problems, "\(text)")
            #expect(fast.skipped == slow.skipped && fast.sawText == slow.sawText && fast.sawRecordOrProblem == slow.sawRecordOrProblem, "\(text)")
            #expect((cut.tsvLayout == nil) == (whole.tsvLayout == nil), "\(text)")
        }
    }

    /// `block` (rows after `header`, from line 2) read by `PlainTSVRows` (for items, and for ids only) and
    /// by the line reader.
    private static func readBothWays(header: String, block: Data) throws -> (fast: BlockReader.Outcome?, ids: BlockReader.Outcome?, slow: BlockReader.Outcome) {
        var reader = RecordReader(file: CorpusFile(path: "f.tsv"), format: .tsv)
        _ = reader.read(TextLines(data: Data((header + "\n").utf8)).lines)
        let layout = try #require(reader.tsvLayout)
        let lines = LineBlock(data: block, firstLine: 2, fileStart: false)
        let fast = PlainTSVRows.read(lines, path: "f.tsv", layout: layout, codes: [:])
        let ids = PlainTSVRows.read(lines, path: "f.tsv", layout: layout, codes: [:], onlyIDs: true)
        return (fast, ids, BlockReader.read(TextLines(lines), path: "f.tsv", with: &reader, codes: [:]))
    }
}
