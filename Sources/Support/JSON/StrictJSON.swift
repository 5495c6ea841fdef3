import Foundation

/// Decoding for configuration files: unknown keys are an error (a typo must not silently fall back
/// to a default), missing keys take defaults, and every failure names the file and the key path.
package enum StrictJSON {
    package struct AnyKey: CodingKey {
        package var stringValue: String
        package var intValue: Int? { nil }
        package init(stringValue: String) { self.stringValue = stringValue }
        package init?(intValue: Int) { nil }
    }

    /// Unknown keys found while decoding; `decode` turns it into `ConfigurationError.unknownKeys` with the file.
    struct UnknownKeys: Error {
        var keyPath: [String]
        var keys: [String]
        var allowed: [String]
    }

    /// An unsupported `schema_version`; `decode` turns it into `ConfigurationError.unsupportedSchemaVersion`.
    struct UnsupportedSchemaVersion: Error {
        var found: Int
        var supported: Int
    }

    /// A value outside its valid range; `decode` turns it into `ConfigurationError.invalid` naming the file and key path.
    package struct OutOfRange: Error {
        var keyPath: [String]
        var reason: String

        package init(keyPath: [String], reason: String) {
            self.keyPath = keyPath
            self.reason = reason
        }
    }

    /// Throws unless `valid`: `key` (in the object `decoder` decodes) has a value its setting cannot use.
    /// `reason` says what is allowed and what was found, e.g. "must be in (0, 1), not 0".
    package static func check(_ valid: Bool, _ key: String, in decoder: Decoder, _ reason: @autoclosure () -> String) throws {
        guard !valid else { return }
        throw OutOfRange(keyPath: names(decoder.codingPath) + [key], reason: reason())
    }

    /// Throws when the object being decoded has keys outside `allowed`.
    package static func rejectUnknownKeys(in decoder: Decoder, allowed: [String]) throws {
        let container = try decoder.container(keyedBy: AnyKey.self)
        let unknown = container.allKeys.map(\.stringValue).filter { !allowed.contains($0) }.sorted()
        guard unknown.isEmpty else {
            throw UnknownKeys(keyPath: names(decoder.codingPath), keys: unknown, allowed: allowed)
        }
    }

    /// Throws unless `found` is `supported`.
    package static func checkSchemaVersion(_ found: Int, supported: Int = 1) throws {
        guard found == supported else { throw UnsupportedSchemaVersion(found: found, supported: supported) }
    }

    /// The bytes of a configuration file; a file that cannot be read is `ConfigurationError.unreadable`.
    /// Only a regular file is read: a directory, FIFO or device (`/dev/null`) is named as what it is.
    package static func read(_ path: String) throws -> Data {
        if let kind = FileKind.notRegular(path) {
            throw ConfigurationError.unreadable(path: path, reason: "\(kind); pass a JSON file")
        }
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw ConfigurationError.unreadable(path: path, reason: FileKind.reason(error, path: path))
        }
    }

    /// Decodes `T` from the file at `path`, mapping every failure to `ConfigurationError`.
    package static func load<T: Decodable>(_ type: T.Type, from path: String) throws -> T {
        try decode(type, from: read(path), path: path)
    }

    package static func decode<T: Decodable>(_ type: T.Type, from data: Data, path: String) throws -> T {
        do {
            let value = try JSONDecoder().decode(type, from: data)
            // What decoded may still hold a key given twice or a trailing comma, which the decoder accepts.
            if let syntax = syntaxError(in: data, path: path) { throw syntax }
            return value
        } catch let error as ConfigurationError {
            throw error
        } catch let error as UnknownKeys {
            throw ConfigurationError.unknownKeys(path: located(path, error.keyPath), keys: error.keys, allowed: error.allowed)
        } catch let error as OutOfRange {
            throw ConfigurationError.invalid(path: located(path, error.keyPath), reason: error.reason)
        } catch let error as UnsupportedSchemaVersion {
            throw ConfigurationError.unsupportedSchemaVersion(path: path, found: error.found, supported: error.supported)
        } catch {
            throw diagnose(error, decoding: type, from: data, path: path)
        }
    }

    /// Decodes a value whose nested sections use synthesized decoding, then rejects any key in the file
    /// that the decoded value does not have (a key it would encode), at any depth: `sampling.n_predicts`
    /// is an error, not a silent default.
    package static func decodeEverySection<T: Codable>(_ type: T.Type, from data: Data, path: String) throws -> T {
        let value = try decode(type, from: data, path: path)
        let encoder = JSONEncoder()
        let raw = try JSONSerialization.jsonObject(with: data)
        let known = try JSONSerialization.jsonObject(with: try encoder.encode(value))
        if let unknown = unknownKeys(raw: raw, known: known, keyPath: []) {
            throw ConfigurationError.unknownKeys(path: located(path, unknown.keyPath), keys: unknown.keys, allowed: unknown.allowed)
        }
        return value
    }

    /// Loads like `load`, checking every nested section for unknown keys (`decodeEverySection`).
    package static func loadEverySection<T: Codable>(_ type: T.Type, from path: String) throws -> T {
        try decodeEverySection(type, from: read(path), path: path)
    }

    static func unknownKeys(raw: Any, known: Any, keyPath: [String]) -> UnknownKeys? {
        if let raw = raw as? [String: Any], let known = known as? [String: Any] {
            let unknown = raw.keys.filter { known[$0] == nil }.sorted()
            if !unknown.isEmpty { return UnknownKeys(keyPath: keyPath, keys: unknown, allowed: known.keys.sorted()) }
            for key in raw.keys.sorted() {
                if let found = unknownKeys(raw: raw[key]!, known: known[key]!, keyPath: keyPath + [key]) { return found }
            }
        } else if let raw = raw as? [Any], let known = known as? [Any] {
            for (index, pair) in zip(raw, known).enumerated() {
                if let found = unknownKeys(raw: pair.0, known: pair.1, keyPath: keyPath + [String(index)]) { return found }
            }
        }
        return nil
    }

    /// `file.json (sampling)`: the file and, when nested, where in it.
    static func located(_ path: String, _ keyPath: [String]) -> String {
        keyPath.isEmpty ? path : "\(path) (\(keyPath.joined(separator: ".")))"
    }
}
