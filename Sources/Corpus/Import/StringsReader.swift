import Foundation
import Support

/// Apple's localisation files: `.strings` (`"key" = "value";`, the key usually the English text) and String Catalogs
/// (`.xcstrings`, JSON holding every language; plural and device variations each give a string).
enum StringsReader {
    static func strings(_ data: Data, path: String, cluster: String) throws(ImportError) -> [LocalisedString] {
        let source: String
        if data.starts(with: [0xFF, 0xFE]) || data.starts(with: [0xFE, 0xFF]), let text = String(data: data, encoding: .utf16) {
            source = text
        } else if let text = String(data: data, encoding: .utf8) {
            source = text
        } else {
            throw .malformed(SourceLocation(file: path, line: 0), "neither UTF-8 nor UTF-16 text")
        }
        var strings: [LocalisedString] = []
        var inComment = false
        for (offset, raw) in source.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var line = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            let location = SourceLocation(file: path, line: offset + 1)
            if inComment { guard let end = line.range(of: "*/") else { continue }; line = String(line[end.upperBound...]); inComment = false }
            if line.hasPrefix("/*") { if let end = line.range(of: "*/") { line = String(line[end.upperBound...]).trimmingCharacters(in: .whitespaces) } else { inComment = true; continue } }
            if line.isEmpty || line.hasPrefix("//") { continue }
            guard line.hasSuffix(";"), let equals = line.range(of: "\" = \"") ?? line.range(of: "\"=\"") else {
                throw .malformed(location, "expected \"key\" = \"value\";")
            }
            let key = try GettextReader.quoted(line[..<equals.lowerBound] + "\"", location)
            let value = try GettextReader.quoted("\"" + line[equals.upperBound...].dropLast(), location)
            strings.append(LocalisedString(text: value, english: key, cluster: cluster, context: key, location: location))
        }
        return strings
    }

    /// Every language in the catalogue, or only `only`.
    static func catalog(_ data: Data, path: String, cluster: String, only: LanguageCode?) throws(ImportError) -> [LanguageCode?: [LocalisedString]] {
        if let failure = JSONSyntax.scan(data).failure {
            let (line, column) = JSONSyntax.lineAndColumn(of: failure.offset, in: [UInt8](data))
            throw .malformed(SourceLocation(file: path, line: line), "column \(column): invalid JSON: \(failure.reason)")
        }
        // try?: the scan above found the JSON well-formed, so the only failure left is a root that is not an object,
        // which the message below names.
        guard let root = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
            throw .malformed(SourceLocation(file: path, line: 1), "a String Catalog is a JSON object")
        }
        guard let entries = root["strings"] as? [String: Any] else {
            throw .malformed(SourceLocation(file: path, line: 1), "a String Catalog needs a \"strings\" object")
        }
        let sourceLanguage = root["sourceLanguage"] as? String ?? "en"
        var out: [LanguageCode?: [LocalisedString]] = [:]
        for (key, value) in entries.sorted(by: { $0.key < $1.key }) {
            guard let localizations = (value as? [String: Any])?["localizations"] as? [String: Any] else { continue }
            let english = (localizations[sourceLanguage]).flatMap { units($0).first } ?? key
            for (raw, localization) in localizations {
                let language: LanguageCode
                do { language = try LanguageCode(raw) } catch {
                    throw .unknownLanguage(raw, SourceLocation(file: path, line: 0))
                }
                if let only, only != language { continue }
                for text in units(localization) {
                    out[language, default: []].append(LocalisedString(text: text, english: raw == sourceLanguage ? nil : english,
                                                                      cluster: cluster, context: key, location: SourceLocation(file: path, line: 0)))
                }
            }
        }
        return out
    }

    /// The values of every translated `stringUnit` inside `object`, in key order.
    static func units(_ object: Any) -> [String] {
        guard let dictionary = object as? [String: Any] else { return [] }
        if let unit = dictionary["stringUnit"] as? [String: Any], let value = unit["value"] as? String,
           (unit["state"] as? String).map({ $0 == "translated" || $0 == "reviewed" }) ?? true {
            return [value]
        }
        return dictionary.keys.sorted().flatMap { units(dictionary[$0]!) }
    }
}
