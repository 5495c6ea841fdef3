@testable import Support
import Foundation
@testable import Corpus
import ByteIO
import Testing

/// `UTF8Validation.isValid` accepts exactly what `String(validating:)` accepts: every sequence of one
/// and two bytes, every sequence of three and four bytes drawn from the values where validity changes
/// (ASCII, the continuation range's ends, every lead byte's limits), and seeded random strings of
/// valid and broken text, checked at every start and end.
struct UTF8ValidationTests {
    static let edges: [UInt8] = [0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE1, 0xEC,
                                 0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xFF]

    static func agrees(_ bytes: [UInt8]) -> Bool {
        let expected = bytes.withUnsafeBufferPointer { String(validating: $0, as: UTF8.self) != nil }
        return bytes.withBytes { UTF8Validation.isValid($0, 0..<$0.count) } == expected
    }

    @Test func shortSequencesAgreeWithString() {
        var disagree: [[UInt8]] = []
        for a in 0...255 {
            if !Self.agrees([UInt8(a)]) { disagree.append([UInt8(a)]) }
            for b in 0...255 where !Self.agrees([UInt8(a), UInt8(b)]) { disagree.append([UInt8(a), UInt8(b)]) }
        }
        for a in Self.edges {
            for b in Self.edges {
                for c in Self.edges {
                    if !Self.agrees([a, b, c]) { disagree.append([a, b, c]) }
                    for d in Self.edges where !Self.agrees([a, b, c, d]) { disagree.append([a, b, c, d]) }
                }
            }
        }
        #expect(disagree.isEmpty, "\(disagree.prefix(10))")
    }

    /// A range inside a buffer: only its bytes count, and a sequence cut by its end is invalid.
    @Test func rangesAgreeWithString() {
        var random = SplitMix64(seed: 8)
        let pieces = ["a", "\t", "я", "ї", "€", "你", "👋", "\u{0301}"].map { Array($0.utf8) }
        for _ in 0..<2_000 {
            var bytes: [UInt8] = []
            for _ in 0..<(random.next() % 8) { bytes += pieces[Int(random.next() % UInt64(pieces.count))] }
            if !bytes.isEmpty, random.next() % 3 == 0 { bytes[Int(random.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: random.next()) }
            for start in 0...bytes.count {
                for end in start...bytes.count {
                    let expected = Self.agrees(Array(bytes[start..<end]))
                    let inPlace = bytes.withBytes { UTF8Validation.isValid($0, start..<end) }
                    let alone = Array(bytes[start..<end]).withBytes { UTF8Validation.isValid($0, 0..<$0.count) }
                    #expect(expected && inPlace == alone, "\(bytes) \(start)..<\(end)")
                }
            }
        }
    }
}
