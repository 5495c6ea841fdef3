/// One result as a JSON line, written without `JSONEncoder` (which cost more than detecting the item):
/// the keys `JSONOutput.line` would write, sorted, nil values left out.
enum DetectionResultLine {
    // Each key with its punctuation, as bytes: the line is assembled without intermediate strings.
    private static let confidence = Array(#""confidence":"#.utf8)
    private static let config = Array(#""config":"#.utf8)
    private static let detector = Array(#","detector":"#.utf8)
    private static let error = Array(#","error":"#.utf8)
    private static let itemHash = Array(#","item_hash":"#.utf8)
    private static let itemID = Array(#","item_id":"#.utf8)
    private static let lang = Array(#","lang":"#.utf8)
    private static let length = Array(#","length":"#.utf8)
    private static let predicted = Array(#","predicted":"#.utf8)
    private static let tags = Array(#","tags":["#.utf8)
    private static let closing = Array("]}\n".utf8)

    static func encode(_ result: DetectionResult, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "{"))
        if let value = result.confidence, value.isFinite {
            out.append(contentsOf: confidence)
            number(value, into: &out)
            out.append(UInt8(ascii: ","))
        }
        out.append(contentsOf: config); string(result.config, into: &out)
        out.append(contentsOf: detector); string(result.detector, into: &out)
        if let value = result.error { out.append(contentsOf: error); string(value, into: &out) }
        if let value = result.itemHash { out.append(contentsOf: itemHash); string(value, into: &out) }
        out.append(contentsOf: itemID); string(result.itemID, into: &out)
        out.append(contentsOf: lang); string(result.lang.identifier, into: &out)
        out.append(contentsOf: length); string(result.length.rawValue, into: &out)
        if let value = result.predicted { out.append(contentsOf: predicted); string(value.identifier, into: &out) }
        out.append(contentsOf: tags)
        for (i, tag) in result.tags.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            string(tag, into: &out)
        }
        out.append(contentsOf: closing)
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
        var text = text
        text.withUTF8 { bytes in
            guard bytes.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else {
                out.append(contentsOf: bytes)
                return
            }
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
        out.append(UInt8(ascii: "\""))
    }

    private static let hex = Array("0123456789abcdef".utf8)
}
