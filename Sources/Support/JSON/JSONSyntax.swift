import Foundation

/// A JSON text checked against the grammar (RFC 8259) on its bytes: the first place it breaks, and
/// where each value sits (key path and byte range).
///
/// Foundation's decoder says only "The given data was not valid JSON." on Linux, for a syntax error
/// and for `1.5` where an integer is expected alike; this scan gives a configuration error its line,
/// column and key path. It also refuses what the decoder lets through (a key given twice, a trailing
/// comma). Configuration files are small, so it favours plain code over speed.
package struct JSONSyntax {
    enum Kind: Equatable { case object, array, string, number, literal }

    /// One value: where it is (`["generation", "repeat"]`, array elements by index) and its bytes.
    package struct Value: Equatable {
        var keyPath: [String]
        var range: Range<Int>
        var kind: Kind
    }

    /// Where the text first breaks the grammar.
    package struct Failure: Error, Equatable {
        package var offset: Int
        package var reason: String
    }

    /// Deeper nesting is refused rather than recursed into (Foundation's decoder stops at 512 too).
    static let maxDepth = 512

    let bytes: [UInt8]
    private(set) var values: [Value] = []
    private var index = 0

    /// Scans `data`; `failure` is nil when it is one well-formed JSON value.
    package static func scan(_ data: Data) -> (values: [Value], failure: Failure?) {
        var scanner = JSONSyntax(bytes: [UInt8](data))
        do {
            try scanner.document()
            return (scanner.values, nil)
        } catch {
            return (scanner.values, error as? Failure)
        }
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private mutating func document() throws {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        skipWhitespace()
        guard index < bytes.count else { throw Failure(offset: index, reason: "empty file; expected a JSON object") }
        try value(at: [], depth: 0)
        skipWhitespace()
        guard index == bytes.count else { throw failure("expected the end of the file after the JSON value") }
    }

    private mutating func value(at keyPath: [String], depth: Int) throws {
        guard depth < Self.maxDepth else { throw failure("nested deeper than \(Self.maxDepth) levels") }
        let start = index
        let kind: Kind
        switch index < bytes.count ? bytes[index] : 0 {
        case UInt8(ascii: "{"):
            try object(at: keyPath, depth: depth)
            kind = .object
        case UInt8(ascii: "["):
            try array(at: keyPath, depth: depth)
            kind = .array
        case UInt8(ascii: "\""):
            _ = try string()
            kind = .string
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            try number()
            kind = .number
        case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
            guard let word = ["true", "false", "null"].first(where: { bytes[index...].starts(with: $0.utf8) }) else {
                throw failure("expected a value")
            }
            index += word.utf8.count
            kind = .literal
        default:
            throw failure("expected a value")
        }
        values.append(Value(keyPath: keyPath, range: start..<index, kind: kind))
    }

    private mutating func object(at keyPath: [String], depth: Int) throws {
        index += 1
        skipWhitespace()
        if consume("}") { return }
        var keys = Set<String>()
        while true {
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw failure("expected a key in double quotes") }
            let keyStart = index
            let key = try string()
            // Decoders keep one of two equal keys silently (`"ru": 0.5, "ru": 0.3` reads as 0.3).
            guard keys.insert(key).inserted else {
                throw Failure(offset: keyStart, reason: "the key '\(key)' appears twice in one object; keep one")
            }
            skipWhitespace()
            guard consume(":") else { throw failure("expected ':' after the key '\(key)'") }
            skipWhitespace()
            try value(at: keyPath + [key], depth: depth + 1)
            skipWhitespace()
            if consume("}") { return }
            guard consume(",") else { throw failure("expected ',' or '}' after the value of '\(key)'") }
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") { throw failure("expected a key after ',' (remove the trailing comma)") }
        }
    }

    private mutating func array(at keyPath: [String], depth: Int) throws {
        index += 1
        skipWhitespace()
        if consume("]") { return }
        var count = 0
        while true {
            try value(at: keyPath + [String(count)], depth: depth + 1)
            count += 1
            skipWhitespace()
            if consume("]") { return }
            guard consume(",") else { throw failure("expected ',' or ']' after an element") }
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") { throw failure("expected a value after ',' (remove the trailing comma)") }
        }
    }

    /// Reads a string starting at its opening quote; returns its text (escapes left as written).
    private mutating func string() throws -> String {
        let start = index
        index += 1
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                let inner = Array(bytes[(start + 1)..<(index - 1)])
                guard let text = String(validating: inner, as: UTF8.self) else {
                    throw Failure(offset: start, reason: "a string that is not valid UTF-8")
                }
                return text
            case UInt8(ascii: "\\"):
                let escape = index + 1 < bytes.count ? bytes[index + 1] : 0
                if escape == UInt8(ascii: "u") {
                    let digits = bytes[min(index + 2, bytes.count)..<min(index + 6, bytes.count)]
                    guard digits.count == 4, digits.allSatisfy({ ($0 >= 48 && $0 <= 57) || ($0 | 0x20 >= 97 && $0 | 0x20 <= 102) }) else {
                        throw failure("expected four hex digits after \\u")
                    }
                    index += 6
                } else {
                    guard "\"\\/bfnrt".utf8.contains(escape) else { throw failure("invalid escape in a string") }
                    index += 2
                }
            case 0..<0x20:
                throw failure("a control character inside a string (write it as an escape such as \\n)")
            default:
                index += 1
            }
        }
        throw Failure(offset: start, reason: "a string that is never closed")
    }

    private mutating func number() throws {
        _ = consume("-")
        if !consume("0") {  // no leading zeros: 01 is not a number
            guard digits() > 0 else { throw failure("expected a digit in a number") }
        }
        if consume("."), digits() == 0 { throw failure("expected a digit after the decimal point") }
        if consume("e") || consume("E") {
            _ = consume("+") || consume("-")
            guard digits() > 0 else { throw failure("expected a digit in the exponent") }
        }
    }

    private mutating func digits() -> Int {
        let start = index
        while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") { index += 1 }
        return index - start
    }

    private mutating func consume(_ character: Unicode.Scalar) -> Bool {
        guard index < bytes.count, bytes[index] == UInt8(ascii: character) else { return false }
        index += 1
        return true
    }

    private mutating func skipWhitespace() {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }

    /// `reason` at the current byte, saying what is there.
    private func failure(_ reason: String) -> Failure {
        Failure(offset: index, reason: "\(reason), found \(Self.describe(bytes, at: index))")
    }

    /// What stands at `offset`: `','`, `'tru'` (a run of letters), `a line break` or `the end of the file`.
    static func describe(_ bytes: [UInt8], at offset: Int) -> String {
        guard offset < bytes.count else { return "the end of the file" }
        if bytes[offset] == 0x0A || bytes[offset] == 0x0D { return "a line break" }
        var end = offset + 1
        let isWord = { (byte: UInt8) in (byte | 0x20 >= 97 && byte | 0x20 <= 122) || (byte >= 48 && byte <= 57) || byte >= 0x80 }
        if isWord(bytes[offset]) {
            while end < bytes.count, end - offset < 24, isWord(bytes[end]) { end += 1 }
        }
        while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end += 1 }  // finish a UTF-8 sequence
        return "'\(String(decoding: bytes[offset..<end], as: UTF8.self))'"
    }

    /// The 1-based line and column (in characters) of byte `offset`.
    package static func lineAndColumn(of offset: Int, in bytes: [UInt8]) -> (line: Int, column: Int) {
        let prefix = bytes[..<min(offset, bytes.count)]
        let line = 1 + prefix.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
        let lineStart = prefix.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
        let column = 1 + bytes[lineStart..<prefix.endIndex].reduce(0) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) }
        return (line, column)
    }
}
