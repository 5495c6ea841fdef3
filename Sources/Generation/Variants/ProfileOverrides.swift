import Support
import Foundation
import Corpus

/// Applies a variant's overrides to a profile: objects merge key by key, other values replace, and in the
/// per-language tables `null` removes an entry (so the language falls back to `default`). Keys that the
/// profile does not have are errors, as are table keys that are not language codes, so a typo never
/// silently measures the base profile under another name.
enum ProfileOverrides {
    /// Tables keyed by language (or `default`) and by language pair; every other object has fixed keys.
    static let languageTables: Set<String> = ["prompts.instructions", "prompts.speakers", "prompts.locale_line", "prompts.must_line"]
    static let pairTables: Set<String> = ["prompts.translation_examples"]

    static func apply(_ overrides: [String: Any], to profile: ModelProfile, at prefix: String,
                      fail: (String, String) -> ConfigurationError) throws -> ModelProfile {
        let encoded = try JSONEncoder().encode(profile)
        guard var base = try JSONSerialization.jsonObject(with: encoded) as? [String: Any] else {
            throw fail(prefix, "internal: the profile did not encode as an object")
        }
        base = try merge(overrides, into: base, path: "", prefix: prefix, fail: fail)
        let data = try JSONSerialization.data(withJSONObject: base)
        do {
            return try JSONDecoder().decode(ModelProfile.self, from: data)
        } catch let error as DecodingError {
            let (keyPath, reason) = StrictJSON.explain(error, decoding: ModelProfile.self, from: data)
            throw fail(([prefix] + keyPath).joined(separator: "."), reason)
        } catch {
            throw fail(prefix, JSONErrorText.describe(error))
        }
    }

    private static func merge(_ overrides: [String: Any], into base: [String: Any], path: String, prefix: String,
                              fail: (String, String) -> ConfigurationError) throws -> [String: Any] {
        let isTable = languageTables.contains(path) || pairTables.contains(path)
        var result = base
        for key in overrides.keys.sorted() {
            let value = overrides[key]!
            let keyPath = path.isEmpty ? key : "\(path).\(key)"
            let shown = "\(prefix).\(keyPath)"
            if languageTables.contains(path) {
                if key != "default" { try checkLanguage(key, shown: shown, fail: fail) }
            } else if pairTables.contains(path) {
                let parts = key.split(separator: "-", maxSplits: 1).map(String.init)
                guard parts.count == 2 else { throw fail(shown, "expected a language pair such as 'ru-en'") }
                for part in parts { try checkLanguage(part, shown: shown, fail: fail) }
            } else if base[key] == nil {
                throw fail(shown, "unknown key; allowed here: \(base.keys.sorted().joined(separator: ", "))")
            }
            if value is NSNull {
                guard isTable else { throw fail(shown, "null only removes an entry of a per-language table") }
                result[key] = nil
            } else if !isTable, let object = value as? [String: Any], let inner = base[key] as? [String: Any] {
                result[key] = try merge(object, into: inner, path: keyPath, prefix: prefix, fail: fail)
            } else {
                // Table entries and plain values replace; the profile decoder then checks their types.
                result[key] = value
            }
        }
        return result
    }

    private static func checkLanguage(_ code: String, shown: String, fail: (String, String) -> ConfigurationError) throws {
        do { _ = try LanguageCode(code) } catch { throw fail(shown, "'\(code)' is not a language code (\(error))") }
    }
}
