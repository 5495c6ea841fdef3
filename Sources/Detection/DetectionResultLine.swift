import Support
import Corpus
import ByteIO

/// One result as a row of the results log (format 3): a JSON array of `columns`, in that order, `null`
/// for no prediction, confidence or item hash, and the error as a tenth element only when there is one.
/// Written without `JSONEncoder` (which cost more than detecting the item), straight into the writer's buffer.
enum DetectionResultLine {
    /// The row's elements, in order (the header's `columns`); `error` is present only when set.
    static let columns = ["config", "detector", "item_id", "item_hash", "lang", "length", "tags", "predicted", "confidence", "error"]

    private static let null: StaticString = "null"

    /// `result` as a row, with `fingerprint` (when given) as its `item_hash`; `fixed`, when it is of the
    /// result's config and detector, stands in for them.
    static func encode<Out: ByteSink>(_ result: DetectionResult, fingerprint: UInt64? = nil, into out: inout Out, fixed: FixedCells? = nil) {
        out.put(UInt8(ascii: "["))
        if let fixed, fixed.fit(result) {
            out.put(fixed.bytes)
        } else {
            configAndDetector(config: result.config, detector: result.detector, into: &out)
        }
        string(result.itemID, into: &out)
        out.put(UInt8(ascii: ","))
        if let fingerprint {
            quotedHex(fingerprint, into: &out)
        } else if let value = result.itemHash {
            string(value, into: &out)
        } else {
            out.put(literal: null)
        }
        out.put(UInt8(ascii: ","))
        string(result.lang.identifier, into: &out)
        out.put(UInt8(ascii: ","))
        unescaped(result.length.rawValue, into: &out)
        out.put(UInt8(ascii: ","))
        out.put(UInt8(ascii: "["))
        for (i, tag) in result.tags.enumerated() {
            if i > 0 { out.put(UInt8(ascii: ",")) }
            string(tag, into: &out)
        }
        out.put(UInt8(ascii: "]"))
        out.put(UInt8(ascii: ","))
        if let value = result.predicted { string(value.identifier, into: &out) } else { out.put(literal: null) }
        out.put(UInt8(ascii: ","))
        if let value = result.confidence, value.isFinite { number(value, into: &out) } else { out.put(literal: null) }
        if let value = result.error {
            out.put(UInt8(ascii: ","))
            string(value, into: &out)
        }
        out.put(UInt8(ascii: "]"))
        out.put(UInt8(ascii: "\n"))
    }

    /// The config and detector elements, each with the comma after it.
    static func configAndDetector<Out: ByteSink>(config: String, detector: String, into out: inout Out) {
        string(config, into: &out)
        out.put(UInt8(ascii: ","))
        string(detector, into: &out)
        out.put(UInt8(ascii: ","))
    }

    /// `value.description` (what `JSONEncoder` writes for a Double here), without the formatter for
    /// 4-decimal values, the shortest decimal that reads back as the same Double (`0.5`, `1.0`).
    static func number<Out: ByteSink>(_ value: Double, into out: inout Out) {
        // Only a value that is exactly the Double nearest to its 4-decimal reading prints as that reading.
        guard let (whole, fraction) = FourDecimals.split(value), Double(whole * 10_000 + fraction) / 10_000 == value else {
            out.put(utf8: value.description)
            return
        }
        FourDecimals.digits(whole, into: &out)
        out.put(UInt8(ascii: "."))
        FourDecimals.fraction(fraction, keepingZeros: false, into: &out)
    }

    /// A JSON string: quotes, backslashes and control characters escaped; other UTF-8 as is.
    static func string<Out: ByteSink>(_ text: String, into out: inout Out) {
        out.put(UInt8(ascii: "\""))
        let plain = text.utf8.withContiguousStorageIfAvailable { bytes in
            guard bytes.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else {
                out.put(ByteView(bytes))
                return true
            }
            return false
        } ?? false
        if !plain { escaped(text, into: &out) }
        out.put(UInt8(ascii: "\""))
    }

    /// A JSON string of text that never needs an escape (a length bucket's name).
    private static func unescaped<Out: ByteSink>(_ text: String, into out: inout Out) {
        out.put(UInt8(ascii: "\""))
        out.put(utf8: text)
        out.put(UInt8(ascii: "\""))
    }

    /// A fingerprint as a JSON string of its 16 hex digits (`FNV1a64.hex`), with no string made.
    private static func quotedHex<Out: ByteSink>(_ value: UInt64, into out: inout Out) {
        out.put(UInt8(ascii: "\""))
        out.put(hex: value)
        out.put(UInt8(ascii: "\""))
    }

    /// The bytes of `text` with JSON's escapes.
    private static func escaped<Out: ByteSink>(_ text: String, into out: inout Out) {
        var text = text
        text.withUTF8 { bytes in
            for byte in bytes {
                switch byte {
                case UInt8(ascii: "\""): out.put(UInt8(ascii: "\\")); out.put(UInt8(ascii: "\""))
                case UInt8(ascii: "\\"): out.put(UInt8(ascii: "\\")); out.put(UInt8(ascii: "\\"))
                case 0x0A: out.put(UInt8(ascii: "\\")); out.put(UInt8(ascii: "n"))
                case 0x0D: out.put(UInt8(ascii: "\\")); out.put(UInt8(ascii: "r"))
                case 0x09: out.put(UInt8(ascii: "\\")); out.put(UInt8(ascii: "t"))
                case 0..<0x20: out.put(literal: "\\u00"); out.put(hex[Int(byte >> 4)]); out.put(hex[Int(byte & 0xF)])
                default: out.put(byte)
                }
            }
        }
    }

    private static let hex = Array("0123456789abcdef".utf8)
}
