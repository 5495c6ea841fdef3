import Foundation

/// Why a configuration file does not decode, located: `file:3:12: …` for a syntax error,
/// `file (generation.repeat): expected an integer, found 1.5` for a value of the wrong type.
extension StrictJSON {
    /// The located error for `error`, thrown while decoding `data` (the file at `path`) as `T`.
    static func diagnose<T: Decodable>(_ error: Error, decoding type: T.Type, from data: Data, path: String) -> ConfigurationError {
        if let syntax = syntaxError(in: data, path: path) { return syntax }
        guard let error = error as? DecodingError else { return .invalid(path: path, reason: "\(error)") }
        let (keyPath, reason) = explain(error, decoding: type, from: data)
        return .invalid(path: located(path, keyPath), reason: reason)
    }

    /// `file:LINE:COLUMN: invalid JSON: …` when `data` is not well-formed JSON, else nil.
    package static func syntaxError(in data: Data, path: String) -> ConfigurationError? {
        guard let failure = JSONSyntax.scan(data).failure else { return nil }
        let (line, column) = JSONSyntax.lineAndColumn(of: failure.offset, in: [UInt8](data))
        return .syntax(path: path, line: line, column: column, reason: failure.reason)
    }

    /// Where in well-formed `data` decoding `T` failed, and why, in the file's own terms.
    package static func explain<T: Decodable>(_ error: DecodingError, decoding type: T.Type, from data: Data) -> (keyPath: [String], reason: String) {
        let values = JSONSyntax.scan(data).values
        let bytes = [UInt8](data)
        func found(_ keyPath: [String]) -> String {
            guard let value = values.last(where: { $0.keyPath == keyPath }) else { return "nothing" }
            let text = String(decoding: bytes[value.range], as: UTF8.self)
            switch value.kind {
            case .object: return "an object"
            case .array: return "an array"
            case .string: return value.range.count <= 42 ? text : "a string"
            case .number, .literal: return text
            }
        }
        switch error {
        case .typeMismatch(let expected, let context):
            let keyPath = names(context.codingPath)
            return (keyPath, "expected \(noun(expected)), found \(found(keyPath))")
        case .valueNotFound(let expected, let context):
            return (names(context.codingPath), "expected \(noun(expected)), found null")
        case .keyNotFound(let key, let context):
            return (names(context.codingPath), "missing the key '\(key.stringValue)'")
        case .dataCorrupted(let context) where !context.codingPath.isEmpty:
            return (names(context.codingPath), context.debugDescription)
        default:
            // Foundation's "not valid JSON" for valid JSON: a number its field cannot hold (1.5 or 1e400
            // for an integer). Each number in turn becomes a string; the field that then reports a type
            // mismatch names the type it wanted, and the number is the culprit if it does not fit it.
            for value in values where value.kind == .number {
                var trial = bytes
                trial.replaceSubrange(value.range, with: Array(#""?""#.utf8))
                do {
                    _ = try JSONDecoder().decode(type, from: Data(trial))
                } catch DecodingError.typeMismatch(let expected, let context) where names(context.codingPath) == value.keyPath {
                    let literal = String(decoding: bytes[value.range], as: UTF8.self)
                    if let reason = misfit(literal, expected) { return (value.keyPath, reason) }
                } catch {}  // another failure: this number is not the one
            }
            return ([], "cannot be decoded (\(JSONErrorText.describe(error)))")
        }
    }

    /// Why `literal` does not fit a field of type `expected`, or nil when it does.
    static func misfit(_ literal: String, _ expected: Any.Type) -> String? {
        if let integer = expected as? any FixedWidthInteger.Type { return integerMisfit(literal, integer) }
        if expected is any BinaryFloatingPoint.Type, Double(literal)?.isFinite != true {
            return "expected a number, found \(literal), which is out of range"
        }
        return nil
    }

    private static func integerMisfit<I: FixedWidthInteger>(_ literal: String, _: I.Type) -> String? {
        if I(literal) != nil { return nil }
        guard let value = Double(literal), value.isFinite, value.rounded() == value else { return "expected an integer, found \(literal)" }
        if I(exactly: value) != nil { return nil }
        return "expected an integer from \(I.min) to \(I.max), found \(literal)"
    }

    /// "an integer", "a number", "a string", … for a type the decoder wanted.
    static func noun(_ type: Any.Type) -> String {
        if type is any FixedWidthInteger.Type { return "an integer" }
        if type is any BinaryFloatingPoint.Type { return "a number" }
        if type == String.self { return "a string" }
        if type == Bool.self { return "true or false" }
        let name = String(describing: type)
        if name.hasPrefix("Array<") || name.hasPrefix("[") && !name.contains(":") { return "an array" }
        if name.hasPrefix("Dictionary<") || name.hasPrefix("[") { return "an object" }
        return name
    }

    /// `["configs", "0", "hints"]`: array positions by index, keys by name.
    static func names(_ codingPath: [any CodingKey]) -> [String] {
        codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }
    }
}
