import Foundation
import Corpus
import ByteIO

/// Reads the rows of a format-3 results log (`DetectionResultLine`) back into results: by position and
/// strictly, so an element of the wrong kind, or too few or too many of them, is an error naming it.
/// Written by hand rather than with `JSONDecoder` because a resume reads every row of the log; language
/// codes, which repeat on every row, are checked once each.
struct DetectionRowReader {
    /// Why a line is not a row, in words for the "line N is not a valid record (…)" error.
    struct Invalid: Error, CustomStringConvertible {
        let description: String
    }

    private var languages: [String: LanguageCode] = [:]
    private var lastTags: [String] = []
    private var tags: [String] = []
    /// The previous row's config and detector, and the language texts met first (up to
    /// `recentLimit`): rows repeat them, and a text equal byte for byte to one of them is taken as it
    /// is rather than made and looked up again.
    private var config = "", detector = ""
    private var recent: [(text: [UInt8], code: LanguageCode)] = []
    private static let recentLimit = 16

    /// The result of the row `line` (without its newline).
    mutating func result(_ line: ByteView) throws(Invalid) -> DetectionResult {
        var row = RowCursor(bytes: line)
        try row.open()
        config = try Self.same(&row, 0, as: config)
        detector = try Self.same(&row, 1, as: detector)
        let itemID = try row.string(2)
        let itemHash = try row.stringOrNull(3)
        let lang = try language(&row, column: 4)!
        let lengthText = try row.string(5)
        guard let length = LengthBucket(rawValue: lengthText) else {
            throw Invalid(description: "length '\(lengthText)' is not one of \(LengthBucket.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        tags.removeAll(keepingCapacity: true)
        try row.strings(6, into: &tags)
        if tags != lastTags { lastTags = tags }  // rows of one item share their tags' storage
        let predicted = try language(&row, column: 7)
        let confidence = try row.numberOrNull(8)
        let error = try row.error(9)
        try row.close()
        return DetectionResult(itemID: itemID, lang: lang, tags: lastTags, length: length, config: config, detector: detector,
                               predicted: predicted, confidence: confidence, error: error, itemHash: itemHash)
    }

    /// Element `column`'s string: `last` itself when equal to it byte for byte.
    private static func same(_ row: inout RowCursor, _ column: Int, as last: String) throws(Invalid) -> String {
        switch try row.text(column, orNull: false) {
        case .null: return last  // not given for orNull: false
        case .unescaped(let text): return text
        case .bytes(let span):
            var last = last
            return last.withUTF8Bytes { $0 == span } ? last : span.string
        }
    }

    /// The language code of element `column` (nil for null, which only the predicted column may be).
    private mutating func language(_ row: inout RowCursor, column: Int) throws(Invalid) -> LanguageCode? {
        switch try row.text(column, orNull: column == 7) {
        case .null: return nil
        case .unescaped(let text): return try language(text, column: column)
        case .bytes(let span):
            for entry in recent where span.equals(entry.text) { return entry.code }
            let code = try language(span.string, column: column)
            if recent.count < Self.recentLimit { recent.append((Array(span), code)) }
            return code
        }
    }

    private mutating func language(_ text: String, column: Int) throws(Invalid) -> LanguageCode {
        if let known = languages[text] { return known }
        do {
            let code = try LanguageCode(text)
            languages[text] = code
            return code
        } catch {
            throw Invalid(description: "\(DetectionResultLine.columns[column]): \(error)")
        }
    }
}

/// A position in one row's bytes, reading its elements in order.
private struct RowCursor {
    let bytes: ByteView
    var at = 0

    init(bytes: ByteView) {
        self.bytes = bytes
    }

    private static let quote = UInt8(ascii: "\""), comma = UInt8(ascii: ","), open = UInt8(ascii: "["), close = UInt8(ascii: "]"),
                       backslash = UInt8(ascii: "\\")
    private static let columns = DetectionResultLine.columns
    /// Elements before the optional `error`.
    private static let required = columns.count - 1

    mutating func open() throws(Invalid) {
        skipSpace()
        guard peek == Self.open else { throw Invalid(description: "a row is a JSON array") }
        at += 1
    }

    /// After the last element: the closing bracket and nothing but spaces.
    mutating func close() throws(Invalid) {
        skipSpace()
        if peek == Self.comma { throw Invalid(description: "more than \(Self.columns.count) elements") }
        guard peek == Self.close else { throw Invalid(description: "expected ']' after \(Self.columns.count) elements") }
        at += 1
        skipSpace()
        guard at == bytes.count else { throw Invalid(description: "text after the row's closing bracket") }
    }

    mutating func string(_ column: Int) throws(Invalid) -> String {
        try element(column)
        guard peek == Self.quote else { throw Invalid(description: "\(Self.columns[column]) is not a string") }
        return try quoted(column)
    }

    /// Element `column`, a string (or null where `orNull`): its bytes in place when it has no
    /// escapes, else the unescaped text.
    enum Text {
        case bytes(ByteView)
        case unescaped(String)
        case null
    }

    mutating func text(_ column: Int, orNull: Bool) throws(Invalid) -> Text {
        try element(column)
        if orNull, literalNull() { return .null }
        guard peek == Self.quote else { throw Invalid(description: "\(Self.columns[column]) is not a string" + (orNull ? " or null" : "")) }
        let start = at + 1
        var end = start
        while end < bytes.count, bytes[end] != Self.quote, bytes[end] != Self.backslash, bytes[end] >= 0x20 { end += 1 }
        guard end < bytes.count, bytes[end] == Self.quote else { return .unescaped(try quoted(column)) }
        at = end + 1
        return .bytes(bytes[start..<end])
    }

    mutating func stringOrNull(_ column: Int) throws(Invalid) -> String? {
        try element(column)
        if literalNull() { return nil }
        guard peek == Self.quote else { throw Invalid(description: "\(Self.columns[column]) is not a string or null") }
        return try quoted(column)
    }

    /// An array of strings, appended to `out`.
    mutating func strings(_ column: Int, into out: inout [String]) throws(Invalid) {
        try element(column)
        let notStrings = Invalid(description: "\(Self.columns[column]) is not an array of strings")
        guard peek == Self.open else { throw notStrings }
        at += 1
        skipSpace()
        if peek == Self.close { at += 1; return }
        while true {
            skipSpace()
            guard peek == Self.quote else { throw notStrings }
            out.append(try quoted(column))
            skipSpace()
            switch peek {
            case Self.comma: at += 1
            case Self.close: at += 1; return
            default: throw notStrings
            }
        }
    }

    mutating func numberOrNull(_ column: Int) throws(Invalid) -> Double? {
        try element(column)
        if literalNull() { return nil }
        guard let value = number() else { throw Invalid(description: "\(Self.columns[column]) is not a number or null") }
        return value
    }

    /// The optional last element: a string when there is a separator before it.
    mutating func error(_ column: Int) throws(Invalid) -> String? {
        skipSpace()
        guard peek == Self.comma else { return nil }
        at += 1
        skipSpace()
        guard peek == Self.quote else { throw Invalid(description: "\(Self.columns[column]) is not a string") }
        return try quoted(column)
    }

    /// Moves to element number `column`: past the separator before it, if any; a row that ends before
    /// it has too few elements.
    private mutating func element(_ column: Int) throws(Invalid) {
        skipSpace()
        if column > 0 {
            if peek == Self.close || peek == nil { throw Invalid(description: "\(column) elements, expected \(Self.required) or \(Self.columns.count)") }
            guard peek == Self.comma else { throw Invalid(description: "expected ',' after \(Self.columns[column - 1])") }
            at += 1
            skipSpace()
        } else if peek == Self.close {
            throw Invalid(description: "0 elements, expected \(Self.required) or \(Self.columns.count)")
        }
    }

    private var peek: UInt8? { at < bytes.count ? bytes[at] : nil }

    private mutating func skipSpace() {
        while at < bytes.count, bytes[at] == 0x20 || bytes[at] == 0x09 || bytes[at] == 0x0D { at += 1 }
    }

    private mutating func literalNull() -> Bool {
        guard bytes.count - at >= 4, bytes[at] == UInt8(ascii: "n"), bytes[at + 1] == UInt8(ascii: "u"),
              bytes[at + 2] == UInt8(ascii: "l"), bytes[at + 3] == UInt8(ascii: "l") else { return false }
        at += 4
        return true
    }

    /// The string starting at the opening quote; text without escapes is taken as it is.
    private mutating func quoted(_ column: Int) throws(Invalid) -> String {
        at += 1
        let start = at
        while at < bytes.count {
            let byte = bytes[at]
            if byte == Self.quote {
                let text = bytes.string(start..<at)
                at += 1
                return text
            }
            if byte == Self.backslash { break }
            if byte < 0x20 { throw Invalid(description: "\(Self.columns[column]) holds an unescaped control character") }
            at += 1
        }
        var text = Array(bytes[start..<at])
        try unescape(column, into: &text)
        return String(decoding: text, as: UTF8.self)
    }

    /// The rest of a string with escapes, from the first backslash to past the closing quote.
    private mutating func unescape(_ column: Int, into out: inout [UInt8]) throws(Invalid) {
        let bad = Invalid(description: "\(Self.columns[column]) is not a valid JSON string")
        while at < bytes.count {
            let byte = bytes[at]
            at += 1
            switch byte {
            case Self.quote:
                return
            case Self.backslash:
                guard let escape = peek else { throw bad }
                at += 1
                switch escape {
                case Self.quote, Self.backslash, UInt8(ascii: "/"): out.append(escape)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    guard let scalar = try unicodeEscape(bad) else { throw bad }
                    UTF8.encode(scalar) { out.append($0) }
                default: throw bad
                }
            case 0..<0x20:
                throw bad
            default:
                out.append(byte)
            }
        }
        throw bad
    }

    /// The scalar of `\uXXXX` (the `\u` read), joining a surrogate pair.
    private mutating func unicodeEscape(_ bad: Invalid) throws(Invalid) -> Unicode.Scalar? {
        let first = try hex4(bad)
        guard (0xD800..<0xDC00).contains(first) else { return Unicode.Scalar(first) }
        guard bytes.count - at >= 6, bytes[at] == Self.backslash, bytes[at + 1] == UInt8(ascii: "u") else { throw bad }
        at += 2
        let second = try hex4(bad)
        guard (0xDC00..<0xE000).contains(second) else { throw bad }
        return Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00))
    }

    private mutating func hex4(_ bad: Invalid) throws(Invalid) -> UInt32 {
        guard bytes.count - at >= 4 else { throw bad }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[at]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw bad
            }
            value = value << 4 | UInt32(digit)
            at += 1
        }
        return value
    }

    /// A JSON number, or nil when the text is not one. A plain decimal of up to 15 digits is the exact
    /// quotient of two exactly represented numbers, so one correctly rounded division reads it (the same
    /// Double as parsing its text); other forms are parsed from their text.
    private mutating func number() -> Double? {
        let start = at
        var mantissa: UInt64 = 0, digits = 0, decimals = 0
        let negative = peek == UInt8(ascii: "-")
        if negative { at += 1 }
        func digit() -> UInt8? {
            guard let byte = peek, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            return byte - UInt8(ascii: "0")
        }
        guard let lead = digit() else { return nil }
        var next: UInt8? = lead
        while let value = next {  // a leading 0 is the whole integer part
            Self.accumulate(value, &mantissa, &digits)
            at += 1
            next = lead == 0 ? nil : digit()
        }
        if peek == UInt8(ascii: ".") {
            at += 1
            guard digit() != nil else { return nil }
            while let next = digit() {
                Self.accumulate(next, &mantissa, &digits)
                decimals += 1
                at += 1
            }
        }
        var exponent = false
        if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
            exponent = true
            at += 1
            if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { at += 1 }
            guard digit() != nil else { return nil }
            while digit() != nil { at += 1 }
        }
        if !exponent, digits <= 15, decimals < Self.powersOfTen.count {
            let value = Double(mantissa) / Self.powersOfTen[decimals]
            return negative ? -value : value
        }
        return Double(bytes.string(start..<at))
    }

    /// Adds a digit to the mantissa (whose value is used only while it has at most 15 digits).
    private static func accumulate(_ digit: UInt8, _ mantissa: inout UInt64, _ digits: inout Int) {
        if digits < 19 { mantissa = mantissa &* 10 &+ UInt64(digit) }
        digits += 1
    }

    /// 10⁰ … 10²², each exactly a Double.
    private static let powersOfTen: [Double] = (0...22).map { (0..<$0).reduce(1.0) { value, _ in value * 10 } }
}

private typealias Invalid = DetectionRowReader.Invalid
