/// One result as a row of the results log (format 3): a JSON array of `columns`, in that order, `null`
/// for no prediction, confidence or item hash, and the error as a tenth element only when there is one.
/// Written without `JSONEncoder` (which cost more than detecting the item), straight into the writer's buffer.
enum DetectionResultLine {
    /// The row's elements, in order (the header's `columns`); `error` is present only when set.
    static let columns = ["config", "detector", "item_id", "item_hash", "lang", "length", "tags", "predicted", "confidence", "error"]

    private static let null: StaticString = "null"

    /// `result` as a row, with `fingerprint` (when given) as its `item_hash`; `fixed`, when it is of the
    /// result's config and detector, stands in for them.
    static func encode(_ result: DetectionResult, fingerprint: UInt64? = nil, into out: inout [UInt8], fixed: FixedCells? = nil) {
        out.append(UInt8(ascii: "["))
        if let fixed, fixed.fit(result) {
            out.append(contentsOf: fixed.bytes)
        } else {
            configAndDetector(config: result.config, detector: result.detector, into: &out)
        }
        string(result.itemID, into: &out)
        out.append(UInt8(ascii: ","))
        if let fingerprint {
            quotedHex(fingerprint, into: &out)
        } else if let value = result.itemHash {
            string(value, into: &out)
        } else {
            out.append(literal: null)
        }
        out.append(UInt8(ascii: ","))
        string(result.lang.identifier, into: &out)
        out.append(UInt8(ascii: ","))
        unescaped(result.length.rawValue, into: &out)
        out.append(UInt8(ascii: ","))
        out.append(UInt8(ascii: "["))
        for (i, tag) in result.tags.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            string(tag, into: &out)
        }
        out.append(UInt8(ascii: "]"))
        out.append(UInt8(ascii: ","))
        if let value = result.predicted { string(value.identifier, into: &out) } else { out.append(literal: null) }
        out.append(UInt8(ascii: ","))
        if let value = result.confidence, value.isFinite { number(value, into: &out) } else { out.append(literal: null) }
        if let value = result.error {
            out.append(UInt8(ascii: ","))
            string(value, into: &out)
        }
        out.append(UInt8(ascii: "]"))
        out.append(UInt8(ascii: "\n"))
    }

    /// The config and detector elements, each with the comma after it.
    static func configAndDetector(config: String, detector: String, into out: inout [UInt8]) {
        string(config, into: &out)
        out.append(UInt8(ascii: ","))
        string(detector, into: &out)
        out.append(UInt8(ascii: ","))
    }

    /// `value.description` (what `JSONEncoder` writes for a Double here), without the formatter for
    /// 4-decimal values, the shortest decimal that reads back as the same Double (`0.5`, `1.0`).
    static func number(_ value: Double, into out: inout [UInt8]) {
        // Only a value that is exactly the Double nearest to its 4-decimal reading prints as that reading.
        guard let (whole, fraction) = FourDecimals.split(value), Double(whole * 10_000 + fraction) / 10_000 == value else {
            out.append(utf8: value.description)
            return
        }
        FourDecimals.digits(whole, into: &out)
        out.append(UInt8(ascii: "."))
        FourDecimals.fraction(fraction, keepingZeros: false, into: &out)
    }

    /// A JSON string: quotes, backslashes and control characters escaped; other UTF-8 as is.
    static func string(_ text: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        let plain = text.utf8.withContiguousStorageIfAvailable { bytes in
            guard bytes.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else {
                out.append(contentsOf: bytes)
                return true
            }
            return false
        } ?? false
        if !plain { escaped(text, into: &out) }
        out.append(UInt8(ascii: "\""))
    }

    /// A JSON string of text that never needs an escape (a length bucket's name).
    private static func unescaped(_ text: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        out.append(utf8: text)
        out.append(UInt8(ascii: "\""))
    }

    /// A fingerprint as a JSON string of its 16 hex digits (`FNV1a64.hex`), with no string made.
    private static func quotedHex(_ value: UInt64, into out: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 18) { buffer in
            buffer[0] = UInt8(ascii: "\"")
            let count = FNV1a64.hex(value, into: UnsafeMutableBufferPointer(rebasing: buffer[1...]))
            buffer[count + 1] = UInt8(ascii: "\"")
            out.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[..<(count + 2)]))
        }
    }

    /// The bytes of `text` with JSON's escapes.
    private static func escaped(_ text: String, into out: inout [UInt8]) {
        var text = text
        text.withUTF8 { bytes in
            for byte in bytes {
                switch byte {
                case UInt8(ascii: "\""): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
                case UInt8(ascii: "\\"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
                case 0x0A: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
                case 0x0D: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
                case 0x09: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
                case 0..<0x20: out.append(contentsOf: Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
                default: out.append(byte)
                }
            }
        }
    }

    private static let hex = Array("0123456789abcdef".utf8)
}
