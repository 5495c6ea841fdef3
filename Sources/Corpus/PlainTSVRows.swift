import Foundation
import ByteIO

/// Reads a block of TSV rows (past the header) straight from its bytes into items, without a `String`
/// per line, an array of cells per row or a `RawRecord`: the common case of a corpus that is fine, where
/// line-by-line reading cost more than detecting the items. It takes only blocks whose every row is plain
/// (valid UTF-8, exactly the header's cells, an id without spaces at its ends, a known language code,
/// text that is not blank and within the limit in bytes, no history); anything else returns nil and the
/// block is read line by line, which reports problems in their order. Whatever it returns is what
/// `BlockReader.read(TextLines(block), …)` gives (`ByteFastPathTests`); with `onlyIDs`, the same rows are
/// checked the same way but only the order of their ids kept (`IDRun`: no item, tags, source or `String`
/// made per row; ASCII ids are compared on their bytes, others as `String`s).
enum PlainTSVRows {
    static func read(_ block: LineBlock, path: String, layout: TSVLayout, codes: ItemValidator.CodeCache,
                     onlyIDs: Bool = false) -> BlockReader.Outcome? {
        guard !block.fileStart else { return nil }  // a BOM and the header are the line reader's
        var outcome = BlockReader.Outcome(codes: codes)
        let read = block.data.withBytes { bytes -> Bool in
            var rows = Rows(bytes: TSVBytes(bytes: bytes), path: path, layout: layout)
            return rows.read(firstLine: block.firstLine, onlyIDs: onlyIDs, into: &outcome)
        }
        guard read else { return nil }
        outcome.sawRecordOrProblem = !outcome.items.isEmpty || outcome.ids.count > 0
        outcome.sawText = outcome.sawRecordOrProblem  // every line is blank or an item's
        return outcome
    }

    /// The rows of one block, with what repeats from row to row remembered by its bytes: the last
    /// language code and the last tags (one shared array for every item with the same tags cell).
    private struct Rows {
        let bytes: TSVBytes
        let path: String
        let layout: TSVLayout
        /// Each cell's byte range in the current row.
        var cells: [Range<Int>]
        /// The codes met so far in this block by the bytes of their cell (a corpus has a handful).
        var langs: [(cell: Range<Int>, code: LanguageCode)] = []
        var lastTags: (cell: Range<Int>, tags: [String])?
        /// Whether the current row is all ASCII.
        var isASCII = true
        /// The ids read so far (`onlyIDs`): how many, the first, the last one's cell and whether it is ASCII,
        /// and whether each came after the one before it.
        var idCount = 0
        var firstID: String?
        var lastIDCell = 0..<0
        var lastIDIsASCII = true
        var idsIncrease = true

        init(bytes: TSVBytes, path: String, layout: TSVLayout) {
            self.bytes = bytes
            self.path = path
            self.layout = layout
            cells = Array(repeating: 0..<0, count: layout.count)
        }

        /// Appends the item (or only the id) of every row to `outcome`; false at the first row that is
        /// not plain.
        mutating func read(firstLine: Int, onlyIDs: Bool, into outcome: inout BlockReader.Outcome) -> Bool {
            var line = firstLine - 1
            var start = 0
            while start < bytes.count {
                line += 1
                // No more cells than the header's.
                guard let (end, count, cellStart, rowIsASCII) = bytes.split(from: start, into: &cells, maxTabs: layout.count - 1) else { return false }
                var contentEnd = end
                if contentEnd > start && bytes[contentEnd - 1] == 0x0D { contentEnd -= 1 }  // CRLF
                let next = end + 1
                if contentEnd == start {  // a blank line
                    start = next
                    continue
                }
                guard count == layout.count - 1, cellStart <= contentEnd else { return false }
                cells[count] = cellStart..<contentEnd
                isASCII = rowIsASCII
                // Valid UTF-8 as a whole line exactly when every cell is (a tab is no part of a longer sequence).
                guard isASCII || UTF8Validation.isValid(bytes.bytes, start..<contentEnd) else { return false }
                guard let lang = plainLanguage(codes: &outcome.codes) else { return false }
                if onlyIDs {
                    noteID(cells[layout.id])
                } else {
                    outcome.items.append(CorpusItem(id: bytes.string(cells[layout.id]), lang: lang, text: bytes.string(cells[layout.text]),
                                                    sortedTags: layout.tags.map { tags(cells[$0]) } ?? [], history: [],
                                                    source: SourceLocation(file: path, line: line)))
                }
                start = next
            }
            if onlyIDs {
                outcome.ids = IDRun(count: idCount, first: firstID, last: idCount > 0 ? bytes.string(lastIDCell) : nil, isIncreasing: idsIncrease)
            }
            return true
        }

        /// The row's language, if the row is plain (its bytes are valid UTF-8 by now): what both ways of
        /// reading a row check, with no `String` made for its id or text.
        private mutating func plainLanguage(codes: inout ItemValidator.CodeCache) -> LanguageCode? {
            let idCell = cells[layout.id], textCell = cells[layout.text]
            // Printable ASCII at both ends: nothing to trim, and not empty. Valid UTF-8 text has as many
            // UTF-8 bytes as its cell. Tags cannot make a valid row other than plain.
            guard let first = idCell.first, bytes.isPrintableASCII(at: first), bytes.isPrintableASCII(at: idCell.upperBound - 1),
                  textCell.count <= CorpusLimits.maxTextLength, !bytes.isBlank(textCell) else { return nil }
            if let history = layout.history, !cells[history].isEmpty { return nil }
            return language(&codes)
        }

        /// Adds the id in `cell` to the ids read (`onlyIDs`): compared with the one before on their bytes when
        /// both are ASCII (where byte order is `String` order), else as `String`s (which compare normalised text).
        private mutating func noteID(_ cell: Range<Int>) {
            let ascii = isASCII || bytes.isASCII(cell)
            if idCount == 0 {
                firstID = bytes.string(cell)
            } else if idsIncrease {
                idsIncrease = ascii && lastIDIsASCII ? bytes.before(lastIDCell, cell) : bytes.string(lastIDCell) < bytes.string(cell)
            }
            idCount += 1
            lastIDCell = cell
            lastIDIsASCII = ascii
        }

        /// The row's language, when its code is known.
        private mutating func language(_ codes: inout ItemValidator.CodeCache) -> LanguageCode? {
            let cell = cells[layout.lang]
            for known in langs where bytes.same(known.cell, cell) { return known.code }
            let raw = bytes.string(cell)
            let code = codes[raw] ?? Result { () throws(LanguageCodeError) in try LanguageCode(raw) }
            codes[raw] = code
            guard case .success(let lang) = code else { return nil }
            if langs.count < 16 { langs.append((cell, lang)) }
            return lang
        }

        /// The tags of a tags cell, sorted and unique, as `RawRecord` and validation make them.
        private mutating func tags(_ cell: Range<Int>) -> [String] {
            if let lastTags, bytes.same(lastTags.cell, cell) { return lastTags.tags }
            let tags = CorpusItem.sortedUnique(TagList.parse(bytes.string(cell)))
            lastTags = (cell, tags)
            return tags
        }
    }
}
