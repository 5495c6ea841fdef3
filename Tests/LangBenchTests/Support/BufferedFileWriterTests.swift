@testable import BenchSupport
@testable import Detection
import Foundation
@testable import Generation
@testable import Items
@testable import LangBench
import TestSupport
import Testing

/// The per-item files' writer: bytes written through a cursor in the room reserved for them, across
/// block flushes and lines longer than a block, land in the file in order; and the room reserved for a
/// result is enough for its worst case.
struct BufferedFileWriterTests {
    @Test func linesThroughTheCursorAndAppendsLandInOrder() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("writer-\(UUID().uuidString).txt")
        defer { try? FileManager.default.removeItem(at: url) }
        var random = SplitMix64(seed: 7)
        var expected: [UInt8] = []
        let writer = try BufferedFileWriter(url: url, atomic: true, blockSize: 64)
        for line in 0..<500 {
            // Lines of 0 to 300 bytes: many shorter than the 64-byte block, some several blocks long.
            let bytes = (0..<Int(random.next() % 301)).map { UInt8(truncatingIfNeeded: $0 &+ line) }
            expected += bytes
            if line % 3 == 0 {
                writer.append(bytes: bytes)
            } else {
                try writer.write(bound: bytes.count + Int(random.next() % 5)) { cursor in
                    for byte in bytes.prefix(7) { cursor.put(byte) }
                    cursor.put(Array(bytes.dropFirst(7)))
                }
            }
        }
        try writer.finish()
        #expect(Array(try Data(contentsOf: url)) == expected)
    }

    @Test func theRoomForAResultHoldsItsLongestEncodings() {
        let control = String(decoding: (0..<32).map { UInt8($0) } + Array("\"\\,=".utf8), as: UTF8.self)
        let results = [
            DetectionResult(itemID: "=" + control, lang: LanguageCode(normalised: "uk"), tags: [control, "-" + control], length: .ninePlus,
                            config: control, detector: "exec:" + control, predicted: nil, confidence: .greatestFiniteMagnitude,
                            error: control, itemHash: control),
            DetectionResult(itemID: "", lang: LanguageCode(normalised: "uk"), tags: [], length: .one, config: "", detector: "",
                            predicted: nil, confidence: -.greatestFiniteMagnitude, error: nil),
        ]
        for result in results {
            var csv: [UInt8] = [], line: [UInt8] = []
            DetectionItemsCSV.row(result, correct: false, flip: "broken", into: &csv)
            DetectionResultLine.encode(result, into: &line)
            #expect(csv.count <= result.encodedBound)
            #expect(line.count <= result.encodedBound)
        }
    }
}
