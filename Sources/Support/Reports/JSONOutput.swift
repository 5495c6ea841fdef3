import Foundation

/// The one JSON style of every LangBench file: sorted keys (a stable order), pretty-printed, UTF-8
/// text unescaped, trailing newline.
package enum JSONOutput {
    package static func encode(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return String(decoding: try named { try encoder.encode(value) }, as: UTF8.self) + "\n"
    }

    /// One line of JSON (for `.jsonl` files): sorted keys, no line breaks.
    package static func line(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try named { try encoder.encode(value) }, as: UTF8.self) + "\n"
    }

    /// A string as a JSON string literal (quotes and escapes), as `line` writes it.
    package static func quoted(_ string: String) -> String {
        // try!: a String always encodes.
        String(try! line(string).dropLast())
    }

    /// A value JSON cannot hold (a NaN or infinite number that escaped every check) named by its key path, instead of
    /// Foundation's "The data isn't in the correct format."
    static func named(_ encode: () throws -> Data) throws -> Data {
        do {
            return try encode()
        } catch EncodingError.invalidValue(let value, let context) {
            let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            throw UnencodableValue(path: path.isEmpty ? "(top level)" : String(path.drop { $0 == "." }), value: "\(value)")
        }
    }
}

/// A figure that reached the JSON encoder without a value JSON can hold: a bug in the code that made it (exit 70).
package struct UnencodableValue: Error, CustomStringConvertible {
    package let path: String
    package let value: String
    package var description: String { "cannot write \(path) = \(value) as JSON: a figure that was not measured must be left out (a LangBench bug; please report it)" }
}
