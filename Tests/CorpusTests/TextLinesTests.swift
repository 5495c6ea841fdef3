@testable import Support
import Foundation
@testable import Corpus
import TestSupport
import Testing

/// `TextLines.lineCount` (newlines counted 32 bytes at a time) equals a plain count of the newline bytes,
/// and the lines that decoding finds, over seeded random blocks of every length around the vector width
/// and its 255-step flush: with and without a BOM, the last line with and without its newline, dense and
/// sparse newlines, and blocks that are slices of a larger `Data`.
struct TextLinesTests {
    @Test func lineCountEqualsAPlainCount() {
        var random = SplitMix64(seed: 16)
        let lengths = Array(0...70) + [255 * 32 - 1, 255 * 32, 255 * 32 + 1, 255 * 32 * 2 + 33, 20_000]
        for length in lengths {
            for density in [2, 3, 40] {
                var bytes = (0..<length).map { _ in random.next() % UInt64(density) == 0 ? UInt8(0x0A) : UInt8(truncatingIfNeeded: random.next() % 256) }
                if random.next() % 2 == 0 { bytes = [0xEF, 0xBB, 0xBF] + bytes }
                if random.next() % 2 == 0 { bytes.append(0x0A) }
                let padded = Data([0x0A, 0x41] + bytes + [0x0A])
                for data in [Data(bytes), padded[2..<(padded.endIndex - 1)]] {
                    for fileStart in [true, false] {
                        let hasBOM = fileStart && data.starts(with: [0xEF, 0xBB, 0xBF])
                        let content = hasBOM ? data.dropFirst(3) : data[...]
                        let expected = content.isEmpty ? 0 : content.filter { $0 == 0x0A }.count + (content.last == 0x0A ? 0 : 1)
                        let counted = TextLines.lineCount(of: data, fileStart: fileStart)
                        #expect(counted == expected, "length \(length), density \(density), fileStart \(fileStart)")
                        #expect(counted == TextLines(data: data, fileStart: fileStart).lineCount, "length \(length)")
                    }
                }
            }
        }
    }

    /// Every lane of the counters at its limit: 255 × 32 newlines in a row, then more.
    @Test func allNewlines() {
        for length in [255 * 32, 255 * 32 + 32, 255 * 32 * 3 + 7] {
            let data = Data(repeating: 0x0A, count: length)
            #expect(TextLines.lineCount(of: data, fileStart: false) == length)
        }
    }
}
