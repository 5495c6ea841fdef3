import Foundation

/// `detection-items.csv` written row by row: the bytes `CSVWriter` renders for the items table (one
/// row per item × config; `flip` against the first config), without a table of every row in memory.
enum DetectionItemsCSV {
    static let columns = ["item_id", "lang", "tags", "config", "detector", "predicted", "confidence", "correct", "flip", "error"]

    static func header(into out: BufferedFileWriter) {
        out.append(columns.map(CSVWriter.escape).joined(separator: ",") + "\n")
    }

    /// `flip` is `fixed`, `broken` or empty.
    static func row(_ result: DetectionResult, correct: Bool, flip: String, into out: BufferedFileWriter) {
        text(result.itemID, into: out)
        out.append(byte: comma)
        text(result.lang.identifier, into: out)
        out.append(byte: comma)
        text(result.tags.count == 1 ? result.tags[0] : result.tags.joined(separator: ";"), into: out)
        out.append(byte: comma)
        text(result.config, into: out)
        out.append(byte: comma)
        text(result.detector, into: out)
        out.append(byte: comma)
        text(result.predictedLabel, into: out)
        out.append(byte: comma)
        if let confidence = result.confidence { fourDecimals(confidence, into: out) }
        out.append(byte: comma)
        out.append(correct ? "true" : "false")
        out.append(byte: comma)
        out.append(flip)
        out.append(byte: comma)
        if let error = result.error { text(error, into: out) }
        out.append(byte: UInt8(ascii: "\n"))
    }

    private static let comma = UInt8(ascii: ",")

    /// A text cell as `CSVWriter` writes it. Most cells need neither formula neutralising nor quoting,
    /// which a byte scan proves; the rest go through `CSVWriter`'s own functions (whose Character
    /// semantics decide edge cases such as a combining mark after a comma).
    static func text(_ value: String, into out: BufferedFileWriter) {
        var plain = true
        if let first = value.utf8.first, [UInt8(ascii: "="), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "@"), 0x09, 0x0D].contains(first) {
            plain = false
        } else if value.utf8.contains(where: { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 0x0A || $0 == 0x0D }) {
            plain = false
        }
        out.append(plain ? value : CSVWriter.escape(CSVWriter.neutralise(value)))
    }

    /// `String(format: "%.4f", value)` (what `ReportCell.number(_, digits: 4)` shows), computed directly
    /// for the values detectors give (0 … 1, already rounded to 4 decimals); anything else takes the
    /// formatter.
    static func fourDecimals(_ value: Double, into out: BufferedFileWriter) {
        guard value.isFinite, value.sign == .plus, value < 1_000_000 else {
            out.append(ReportCell.number(value, digits: 4).display)
            return
        }
        let scaled = value * 10_000
        let units = scaled.rounded()
        // Only when the value is a 4-decimal number to far better than the rounding step is the result
        // certain to equal the formatter's correctly rounded output.
        guard abs(scaled - units) < 1e-6 else {
            out.append(ReportCell.number(value, digits: 4).display)
            return
        }
        let whole = Int(units) / 10_000, fraction = Int(units) % 10_000
        out.append(String(whole))
        out.append(byte: UInt8(ascii: "."))
        var digits: [UInt8] = [0x30, 0x30, 0x30, 0x30]
        var rest = fraction
        for i in stride(from: 3, through: 0, by: -1) {
            digits[i] = UInt8(0x30 + rest % 10)
            rest /= 10
        }
        out.append(bytes: digits)
    }
}
