/// One result as a JSON line, written without `JSONEncoder` (which cost more than detecting the item):
/// the keys `JSONOutput.line` would write, sorted, nil values left out.
enum DetectionResultLine {
    static func encode(_ result: DetectionResult, into out: BufferedFileWriter) {
        out.append("{")
        var first = true
        func key(_ name: String) {
            if !first { out.append(byte: UInt8(ascii: ",")) }
            first = false
            out.append(byte: UInt8(ascii: "\""))
            out.append(name)
            out.append("\":")
        }
        if let confidence = result.confidence, confidence.isFinite {
            key("confidence")
            out.append(confidence.description)
        }
        key("config"); string(result.config, into: out)
        key("detector"); string(result.detector, into: out)
        if let error = result.error { key("error"); string(error, into: out) }
        if let hash = result.itemHash { key("item_hash"); string(hash, into: out) }
        key("item_id"); string(result.itemID, into: out)
        key("lang"); string(result.lang.identifier, into: out)
        key("length"); string(result.length.rawValue, into: out)
        if let predicted = result.predicted { key("predicted"); string(predicted.identifier, into: out) }
        key("tags")
        out.append("[")
        for (i, tag) in result.tags.enumerated() {
            if i > 0 { out.append(byte: UInt8(ascii: ",")) }
            string(tag, into: out)
        }
        out.append("]}\n")
    }

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
