import ByteIO

/// The bytes of a block of TSV rows and what `PlainTSVRows` reads from them without state: a line split
/// at its tabs, cells compared, checked and decoded in place. A value of two words, so that a reader
/// holding one calls these without copying itself.
struct TSVBytes {
    let bytes: ByteView

    var count: Int { bytes.count }

    subscript(_ index: Int) -> UInt8 { bytes[index] }

    /// Splits the line from `start` at its tabs into `cells` (all but the last cell, at most `maxTabs`):
    /// where the line ends (its newline, or the end of the block), how many tabs it has, where its last
    /// cell starts, and whether it is all ASCII; nil past `maxTabs` tabs. Eight bytes at a time: a byte
    /// equal to a newline or a tab is marked by its high bit (an exact test for a zero byte in the word
    /// XOR the pattern, with no carry across bytes), and the marks are visited lowest first.
    func split(from start: Int, into cells: inout [Range<Int>], maxTabs: Int)
        -> (end: Int, tabs: Int, lastCellStart: Int, isASCII: Bool)? {
        let ones: UInt64 = 0x0101_0101_0101_0101, low7: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        @inline(__always) func zeroBytes(_ x: UInt64) -> UInt64 { ~(((x & low7) &+ low7) | x | low7) }
        var tabs = 0, cellStart = start, end = start
        var high: UInt64 = 0
        while end &+ 8 <= bytes.count {
            let word = bytes.load(littleEndian: UInt64.self, at: end)
            var marks = zeroBytes(word ^ (ones &* 0x0A)) | zeroBytes(word ^ (ones &* 0x09))
            while marks != 0 {
                let offset = marks.trailingZeroBitCount >> 3, at = end &+ offset
                if bytes[at] == 0x0A {
                    high |= word & ((1 << (UInt64(offset) << 3)) &- 1)  // the bytes before the newline only
                    return (at, tabs, cellStart, high & (ones &* 0x80) == 0)
                }
                guard tabs < maxTabs else { return nil }
                cells[tabs] = cellStart..<at
                tabs &+= 1
                cellStart = at &+ 1
                marks &= marks &- 1
            }
            high |= word
            end &+= 8
        }
        var tail: UInt8 = 0
        while end < bytes.count, bytes[end] != 0x0A {
            tail |= bytes[end]
            if bytes[end] == 0x09 {
                guard tabs < maxTabs else { return nil }
                cells[tabs] = cellStart..<end
                tabs &+= 1
                cellStart = end &+ 1
            }
            end &+= 1
        }
        return (end, tabs, cellStart, high & (ones &* 0x80) == 0 && tail < 0x80)
    }

    /// The cell as a `String` (of a row whose bytes are valid UTF-8).
    func string(_ cell: Range<Int>) -> String {
        bytes.string(cell)
    }

    /// `ItemValidator.isBlank` of the text in `cell` (valid UTF-8), decided by the first byte where it can
    /// be (no `String` made): the first Character is blank only when its first scalar is whitespace or
    /// invisible, and only scalars led by `canStartBlank` bytes are (`ByteFastPathTests` checks every scalar).
    func isBlank(_ cell: Range<Int>) -> Bool {
        guard let first = cell.first else { return true }
        return Self.canStartBlank(bytes[first]) ? ItemValidator.isBlank(string(cell)) : false
    }

    /// Whether `byte` leads a whitespace, control, format or default-ignorable scalar.
    static func canStartBlank(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x00...0x20, 0x7F, 0xC2, 0xCD, 0xD8, 0xDB, 0xDC, 0xE0...0xE3, 0xEF, 0xF0, 0xF3: true
        default: false
        }
    }

    /// Whether two cells hold the same bytes, without a call to `memcmp` per comparison (two per row, a
    /// visible share of reading one).
    func same(_ a: Range<Int>, _ b: Range<Int>) -> Bool {
        guard a.count == b.count else { return false }
        var i = 0
        while i < a.count {
            if bytes[a.lowerBound &+ i] != bytes[b.lowerBound &+ i] { return false }
            i &+= 1
        }
        return true
    }

    /// Whether the bytes of `a` come before those of `b` (a proper prefix first): `String` order when
    /// both are ASCII.
    func before(_ a: Range<Int>, _ b: Range<Int>) -> Bool {
        let common = min(a.count, b.count)
        var i = 0
        while i < common {
            let x = bytes[a.lowerBound &+ i], y = bytes[b.lowerBound &+ i]
            if x != y { return x < y }
            i &+= 1
        }
        return a.count < b.count
    }

    func isASCII(_ cell: Range<Int>) -> Bool {
        var high: UInt8 = 0
        for i in cell { high |= bytes[i] }
        return high < 0x80
    }

    /// A byte from `!` to `~`: neither whitespace nor part of a multi-byte scalar.
    func isPrintableASCII(at index: Int) -> Bool {
        bytes[index] > 0x20 && bytes[index] < 0x7F
    }
}
