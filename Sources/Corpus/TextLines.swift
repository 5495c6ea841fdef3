import Foundation
import ByteIO

/// A file (or a block of whole lines of it) split into physical lines, decoded as UTF-8 one line at a
/// time so that invalid bytes are reported with their line number instead of failing the whole file. A
/// leading BOM (at the start of the file only) and CRLF line ends are removed silently.
struct TextLines {
    struct Line {
        var number: Int
        var text: String
    }

    var lines: [Line] = []
    var invalidUTF8: [Int] = []
    /// Physical lines seen, valid or not: the next block's first line number is `firstLine + lineCount`.
    var lineCount = 0

    init(_ block: LineBlock) {
        self.init(data: block.data, firstLine: block.firstLine, fileStart: block.fileStart)
    }

    /// `firstLine` numbers the first line of `data`; `fileStart` says whether `data` starts the file
    /// (where a BOM is dropped).
    init(data: Data, firstLine: Int = 1, fileStart: Bool = true) {
        let start = Self.contentStart(of: data, fileStart: fileStart)
        var number = firstLine - 1
        data.withBytes { bytes in
            var lineStart = start - data.startIndex
            let end = bytes.count
            while lineStart < end {
                var lineEnd = lineStart
                while lineEnd < end && bytes[lineEnd] != 0x0A { lineEnd += 1 }
                number += 1
                var contentEnd = lineEnd
                if contentEnd > lineStart && bytes[contentEnd - 1] == 0x0D { contentEnd -= 1 }
                if let text = bytes[lineStart..<contentEnd].withContiguousStorageIfAvailable({ String(validating: $0, as: UTF8.self) }) ?? nil {
                    lines.append(Line(number: number, text: text))
                } else {
                    invalidUTF8.append(number)
                }
                lineStart = lineEnd + 1
            }
        }
        lineCount = number - (firstLine - 1)
    }

    /// The physical lines of `data` (what `lineCount` of its decoding would be), counted without decoding.
    static func lineCount(of data: Data, fileStart: Bool) -> Int {
        let start = contentStart(of: data, fileStart: fileStart)
        guard start < data.endIndex else { return 0 }
        let newlines = data.withBytes { newlineCount($0[(start - data.startIndex)...]) }
        // A last line without a newline (only at the end of a file) is a line too.
        return newlines + (data.last == 0x0A ? 0 : 1)
    }

    /// The `\n` bytes in `bytes`, 32 compared at once: a lane of a comparison's mask is -1 where it
    /// matched, so subtracting masks counts matches per lane in a byte, summed before it can wrap
    /// (`SIMDMask` holds just its lanes; `replacing(with:where:)` compiled to a slow generic loop, and the
    /// plain byte loop was not vectorised: about 1–2 GB/s, this 25+).
    static func newlineCount(_ bytes: ByteView) -> Int {
        typealias Lanes = SIMD32<UInt8>
        let newline = Lanes(repeating: 0x0A)
        var count = 0, offset = 0
        while bytes.count - offset >= Lanes.scalarCount {
            var counters = SIMD32<Int8>()
            // At most 255 subtractions per lane before the counters are summed.
            let end = offset + min(255, (bytes.count - offset) / Lanes.scalarCount) * Lanes.scalarCount
            while offset < end {
                let chunk = bytes.load(at: offset, as: Lanes.self)
                counters &-= unsafeBitCast(chunk .== newline, to: SIMD32<Int8>.self)
                offset &+= Lanes.scalarCount
            }
            count += Int(SIMD32<UInt16>(truncatingIfNeeded: Lanes(truncatingIfNeeded: counters)).wrappedSum())
        }
        while offset < bytes.count {
            count &+= bytes[offset] == 0x0A ? 1 : 0
            offset &+= 1
        }
        return count
    }

    /// Where the lines start: after a BOM at the start of the file.
    private static func contentStart(of data: Data, fileStart: Bool) -> Data.Index {
        fileStart && data.starts(with: [0xEF, 0xBB, 0xBF]) ? data.startIndex + 3 : data.startIndex
    }
}
