import Foundation

/// Decoding for configuration files: unknown keys are an error (a typo must not silently fall back
/// to a default), missing keys take defaults, and every failure names the file and the key path.
public enum StrictJSON {
    struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Throws when the object being decoded has keys outside `allowed`.
    public static func rejectUnknownKeys(in decoder: Decoder, allowed: [String]) throws {
        let container = try decoder.container(keyedBy: AnyKey.self)
        let unknown = container.allKeys.map(\.stringValue).filter { !allowed.contains($0) }.sorted()
        guard unknown.isEmpty else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                debugDescription: "unknown key(s) \(unknown.map { "'\($0)'" }.joined(separator: ", ")); allowed: \(allowed.joined(separator: ", "))"))
        }
    }

    /// Decodes `T` from the file at `path`, mapping every failure to `ConfigurationError`.
    public static func load<T: Decodable>(_ type: T.Type, from path: String) throws -> T {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw ConfigurationError.unreadable(path: path, reason: (error as NSError).localizedDescription)
        }
        return try decode(type, from: data, path: path)
    }

    public static func decode<T: Decodable>(_ type: T.Type, from data: Data, path: String) throws -> T {
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch let error as ConfigurationError {
            throw error
        } catch {
            throw ConfigurationError.invalid(path: path, reason: JSONErrorText.describe(error))
        }
    }
}
