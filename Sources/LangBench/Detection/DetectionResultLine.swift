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

    static func encode(_ result: DetectionResult, into out: BufferedFileWriter) {
        out.append(byte: UInt8(ascii: "{"))
        if let value = result.confidence, value.isFinite {
            out.append(bytes: confidence)
            out.append(value.description)
            out.append(byte: UInt8(ascii: ","))
        }
        out.append(bytes: config); string(result.config, into: out)
        out.append(bytes: detector); string(result.detector, into: out)
        if let value = result.error { out.append(bytes: error); string(value, into: out) }
        if let value = result.itemHash { out.append(bytes: itemHash); string(value, into: out) }
        out.append(bytes: itemID); string(result.itemID, into: out)
        out.append(bytes: lang); string(result.lang.identifier, into: out)
        out.append(bytes: length); string(result.length.rawValue, into: out)
        if let value = result.predicted { out.append(bytes: predicted); string(value.identifier, into: out) }
        out.append(bytes: tags)
        for (i, tag) in result.tags.enumerated() {
            if i > 0 { out.append(byte: UInt8(ascii: ",")) }
            string(tag, into: out)
        }
        out.append(bytes: closing)
    }

    private static let closing = Array("]}\n".utf8)

    /// A JSON string: quotes, backslashes and control characters escaped; other UTF-8 as is.
    static func string(_ text: String, into out: BufferedFileWriter) {
        out.append(byte: UInt8(ascii: "\""))
        if !text.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            out.append(text)
        } else {
            let hex = Array("0123456789abcdef".utf8)
            for byte in text.utf8 {
                switch byte {
                case UInt8(ascii: "\""): out.append("\\\"")
                case UInt8(ascii: "\\"): out.append("\\\\")
                case 0x0A: out.append("\\n")
                case 0x0D: out.append("\\r")
                case 0x09: out.append("\\t")
                case 0..<0x20: out.append(bytes: Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
                default: out.append(byte: byte)
                }
            }
        }
        out.append(byte: UInt8(ascii: "\""))
    }
}
