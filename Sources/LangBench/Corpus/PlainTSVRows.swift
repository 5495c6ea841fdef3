import Foundation

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
        let read = block.data.withUnsafeBytes { raw -> Bool in
            withUnsafeTemporaryAllocation(of: Range<Int>.self, capacity: layout.count) { cells in
                var rows = Rows(bytes: raw.bindMemory(to: UInt8.self), path: path, layout: layout, cells: cells)
                return rows.read(firstLine: block.firstLine, onlyIDs: onlyIDs, into: &outcome)
            }
        }
        guard read else { return nil }
        outcome.sawRecordOrProblem = !outcome.items.isEmpty || outcome.ids.count > 0
        outcome.sawText = outcome.sawRecordOrProblem  // every line is blank or an item's
        return outcome
    }

    /// The rows of one block, with what repeats from row to row remembered by its bytes: the last
    /// language code and the last tags (one shared array for every item with the same tags cell).
    private struct Rows {
        let bytes: UnsafeBufferPointer<UInt8>
        let path: String
        let layout: TSVLayout
        /// Each cell's byte range in the current row.
        let cells: UnsafeMutableBufferPointer<Range<Int>>
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

        init(bytes: UnsafeBufferPointer<UInt8>, path: String, layout: TSVLayout, cells: UnsafeMutableBufferPointer<Range<Int>>) {
            self.bytes = bytes
            self.path = path
            self.layout = layout
            self.cells = cells
        }

        /// Appends the item (or only the id) of every row to `outcome`; false at the first row that is
        /// not plain.
        mutating func read(firstLine: Int, onlyIDs: Bool, into outcome: inout BlockReader.Outcome) -> Bool {
            var line = firstLine - 1
            var start = 0
            while start < bytes.count {
                line += 1
                var count = 0, cellStart = start, end = start
                var high: UInt8 = 0
                while end < bytes.count, bytes[end] != 0x0A {
                    high |= bytes[end]
                    if bytes[end] == 0x09 {
                        guard count < layout.count - 1 else { return false }  // more cells than the header's
                        cells[count] = cellStart..<end
                        count += 1
                        cellStart = end + 1
                    }
                    end += 1
                }
                var contentEnd = end
                if contentEnd > start && bytes[contentEnd - 1] == 0x0D { contentEnd -= 1 }  // CRLF
                let next = end + 1
                if contentEnd == start {  // a blank line
                    start = next
                    continue
                }
                guard count == layout.count - 1, cellStart <= contentEnd else { return false }
                cells[count] = cellStart..<contentEnd
                isASCII = high < 0x80
                // Valid UTF-8 as a whole line exactly when every cell is (a tab is no part of a longer sequence).
                guard isASCII || UTF8Validation.isValid(bytes, start..<contentEnd) else { return false }
                guard let lang = plainLanguage(codes: &outcome.codes) else { return false }
                if onlyIDs {
                    noteID(cells[layout.id])
                } else {
                    outcome.items.append(CorpusItem(id: string(cells[layout.id]), lang: lang, text: string(cells[layout.text]),
                                                    sortedTags: layout.tags.map { tags(cells[$0]) } ?? [], history: [],
                                                    source: SourceLocation(file: path, line: line)))
                }
                start = next
            }
            if onlyIDs {
                outcome.ids = IDRun(count: idCount, first: firstID, last: idCount > 0 ? string(lastIDCell) : nil, isIncreasing: idsIncrease)
            }
            return true
        }

        /// The row's language, if the row is plain (its bytes are valid UTF-8 by now): what both ways of
        /// reading a row check, with no `String` made for its id or text.
        private mutating func plainLanguage(codes: inout ItemValidator.CodeCache) -> LanguageCode? {
            let idCell = cells[layout.id], textCell = cells[layout.text]
            // Printable ASCII at both ends: nothing to trim, and not empty. Valid UTF-8 text has as many
            // UTF-8 bytes as its cell. Tags cannot make a valid row other than plain.
            guard let first = idCell.first, Self.isPrintableASCII(bytes[first]), Self.isPrintableASCII(bytes[idCell.upperBound - 1]),
                  textCell.count <= CorpusLimits.maxTextLength, !isBlank(textCell) else { return nil }
            if let history = layout.history, !cells[history].isEmpty { return nil }
            return language(&codes)
        }

        /// Adds the id in `cell` to the ids read (`onlyIDs`): compared with the one before on their bytes when
        /// both are ASCII (where byte order is `String` order), else as `String`s (which compare normalised text).
        private mutating func noteID(_ cell: Range<Int>) {
            let ascii = isASCII || Self.isASCII(bytes, cell)
            if idCount == 0 {
                firstID = string(cell)
            } else if idsIncrease {
                idsIncrease = ascii && lastIDIsASCII ? Self.bytesBefore(bytes, lastIDCell, cell) : string(lastIDCell) < string(cell)
            }
            idCount += 1
            lastIDCell = cell
            lastIDIsASCII = ascii
        }

        /// The row's language, when its code is known.
        private mutating func language(_ codes: inout ItemValidator.CodeCache) -> LanguageCode? {
            let cell = cells[layout.lang]
            for known in langs where same(known.cell, cell) { return known.code }
            let raw = string(cell)
            let code = codes[raw] ?? Result { () throws(LanguageCodeError) in try LanguageCode(raw) }
            codes[raw] = code
            guard case .success(let lang) = code else { return nil }
            if langs.count < 16 { langs.append((cell, lang)) }
            return lang
        }

        /// The tags of a tags cell, sorted and unique, as `RawRecord` and validation make them.
        private mutating func tags(_ cell: Range<Int>) -> [String] {
            if let lastTags, same(lastTags.cell, cell) { return lastTags.tags }
            let tags = CorpusItem.sortedUnique(TagList.parse(string(cell)))
            lastTags = (cell, tags)
            return tags
        }

        /// The cell as a `String` (the row's bytes are valid UTF-8 by now).
        private func string(_ cell: Range<Int>) -> String {
            String(decoding: UnsafeBufferPointer(rebasing: bytes[cell]), as: UTF8.self)
        }

        /// `ItemValidator.isBlank` of the text in `cell`, decided by the first byte where it can be (no
        /// `String` made): a Character is whitespace when its first scalar is, and only scalars from these
        /// lead bytes can be (U+0009–U+000D, U+0020, U+0085, U+00A0, U+1680, U+2000–U+200A, U+2028, U+2029,
        /// U+202F, U+205F, U+3000).
        private func isBlank(_ cell: Range<Int>) -> Bool {
            guard let first = cell.first else { return true }
            switch bytes[first] {
            case 0x00...0x20, 0x7F...0xC2, 0xE1...0xE3: return ItemValidator.isBlank(string(cell))
            default: return false
            }
        }

        private func same(_ a: Range<Int>, _ b: Range<Int>) -> Bool {
            a.count == b.count && Self.equal(bytes.baseAddress! + a.lowerBound, bytes.baseAddress! + b.lowerBound, count: a.count)
        }

        /// `memcmp(a, b, count) == 0` for the few bytes of a cell, without a call per comparison (two per
        /// row, a visible share of reading one).
        @inline(__always)
        private static func equal(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, count: Int) -> Bool {
            var i = 0
            while i < count {
                if a[i] != b[i] { return false }
                i &+= 1
            }
            return true
        }

        private static func isPrintableASCII(_ byte: UInt8) -> Bool {
            byte > 0x20 && byte < 0x7F
        }

        private static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>, _ cell: Range<Int>) -> Bool {
            var high: UInt8 = 0
            for i in cell { high |= bytes[i] }
            return high < 0x80
        }

        /// Whether the bytes of `a` come before those of `b` (a proper prefix first), as `String`s of ASCII
        /// compare.
        private static func bytesBefore(_ bytes: UnsafeBufferPointer<UInt8>, _ a: Range<Int>, _ b: Range<Int>) -> Bool {
            let common = min(a.count, b.count)
            var i = 0
            while i < common {
                let x = bytes[a.lowerBound &+ i], y = bytes[b.lowerBound &+ i]
                if x != y { return x < y }
                i &+= 1
            }
            return a.count < b.count
        }
    }
}
