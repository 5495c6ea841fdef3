@testable import Detection
@testable import Corpus
import Testing

/// The room reserved for a result (`encodedBound`) holds its longest encodings, in the items CSV and the log.
struct EncodedBoundTests {
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
