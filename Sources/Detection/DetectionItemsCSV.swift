import Support
import Foundation
import Corpus
import ByteIO

/// `detection-items.csv`, rendered from the results log in one pass: the bytes `CSVWriter` renders for the
/// items table (one row per item × config; `flip` against the first config), without a table of every
/// row in memory.
enum DetectionItemsCSV {
    static let columns = ["item_id", "lang", "tags", "config", "detector", "predicted", "confidence", "correct", "flip", "error"]

    /// Writes the CSV of the results `cursor` reads (a complete run's, in canonical order: the n-th result of
    /// a config is of item n), with each result's outcome and the first config's from `tally`.
    static func write(from cursor: DetectionStore.Cursor, tally: DetectionTally, to url: URL) throws {
        let out = try BufferedFileWriter(url: url, atomic: true)
        out.append(columns.map(CSVWriter.escape).joined(separator: ",") + "\n")
        var config = -1, position = 0
        while let result = try cursor.next() {
            if cursor.configNumber != config { (config, position) = (cursor.configNumber, 0) }
            let correct = tally.outcome(config: config, item: position) ?? false
            let first = config > 0 ? tally.outcome(config: 0, item: position) : nil
            let flip = first.map { $0 == correct ? "" : correct ? "fixed" : "broken" } ?? ""
            try out.write(bound: result.encodedBound) { row(result, correct: correct, flip: flip, into: &$0) }
            position += 1
        }
        try out.finish()
    }

    /// A whole row; `flip` is `fixed`, `broken` or empty.
    static func row<Out: ByteSink>(_ result: DetectionResult, correct: Bool, flip: String, into out: inout Out) {
        text(result.itemID, into: &out)
        out.put(comma)
        text(result.lang.identifier, into: &out)
        out.put(comma)
        text(result.tags.count == 1 ? result.tags[0] : result.tags.joined(separator: ";"), into: &out)
        out.put(comma)
        text(result.config, into: &out)
        out.put(comma)
        text(result.detector, into: &out)
        out.put(comma)
        text(result.predictedLabel, into: &out)
        out.put(comma)
        if let confidence = result.confidence { fourDecimals(confidence, into: &out) }
        out.put(comma)
        if correct { out.put(literal: "true") } else { out.put(literal: "false") }
        out.put(comma)
        out.put(utf8: flip)
        out.put(comma)
        if let error = result.error { text(error, into: &out) }
        out.put(UInt8(ascii: "\n"))
    }

    private static let comma = UInt8(ascii: ",")

    /// A text cell as `CSVWriter` writes it. Most cells need neither formula neutralising nor quoting,
    /// which a byte scan proves; the rest go through `CSVWriter`'s own functions (whose Character
    /// semantics decide edge cases such as a combining mark after a comma).
    static func text<Out: ByteSink>(_ value: String, into out: inout Out) {
        let plain = value.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            if let first = bytes.first {
                switch first {
                case UInt8(ascii: "="), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "@"), 0x09, 0x0D: return false
                default: break
                }
            }
            for byte in bytes {
                switch byte {
                case UInt8(ascii: ","), UInt8(ascii: "\""), 0x0A, 0x0D: return false
                default: continue
                }
            }
            out.put(ByteView(bytes))
            return true
        } ?? false
        if !plain { out.put(utf8: CSVWriter.escape(CSVWriter.neutralise(value))) }
    }

    /// `String(format: "%.4f", value)` (what `ReportCell.number(_, digits: 4)` shows), computed directly
    /// for the values detectors give (0 … 1, already rounded to 4 decimals); anything else takes the
    /// formatter.
    static func fourDecimals<Out: ByteSink>(_ value: Double, into out: inout Out) {
        guard let (whole, fraction) = FourDecimals.split(value) else {
            out.put(utf8: ReportCell.number(value, digits: 4).display)
            return
        }
        FourDecimals.digits(whole, into: &out)
        out.put(UInt8(ascii: "."))
        FourDecimals.fraction(fraction, keepingZeros: true, into: &out)
    }
}

/// Numbers that are exact to 4 decimals (detectors' confidences, rounded so), written without a formatter.
enum FourDecimals {
    /// The whole part and the 4-digit fraction of `value`, when it is a non-negative 4-decimal number
    /// below a million to far better than the rounding step (only then is the output certain to equal
    /// a correctly rounding formatter's); nil otherwise.
    static func split(_ value: Double) -> (whole: Int, fraction: Int)? {
        guard value.isFinite, value.sign == .plus, value < 1_000_000 else { return nil }
        let scaled = value * 10_000
        let units = scaled.rounded()
        guard abs(scaled - units) < 1e-6 else { return nil }
        return (Int(units) / 10_000, Int(units) % 10_000)
    }

    static func digits<Out: ByteSink>(_ value: Int, into out: inout Out) {
        if value < 10 {
            out.put(UInt8(0x30 + value))
        } else {
            out.put(utf8: String(value))
        }
    }

    /// Four digits, or with `keepingZeros` false the shortest that is not empty (`5000` → `5`, `0` → `0`).
    static func fraction<Out: ByteSink>(_ value: Int, keepingZeros: Bool, into out: inout Out) {
        var digits: (UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0)
        var rest = value
        digits.3 = UInt8(0x30 + rest % 10); rest /= 10
        digits.2 = UInt8(0x30 + rest % 10); rest /= 10
        digits.1 = UInt8(0x30 + rest % 10); rest /= 10
        digits.0 = UInt8(0x30 + rest % 10)
        var count = 4
        if !keepingZeros {
            if digits.3 == 0x30 { count = 3; if digits.2 == 0x30 { count = 2; if digits.1 == 0x30 { count = 1 } } }
        }
        out.put(digits.0)
        if count > 1 { out.put(digits.1) }
        if count > 2 { out.put(digits.2) }
        if count > 3 { out.put(digits.3) }
    }
}
