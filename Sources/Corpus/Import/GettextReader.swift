import Foundation

/// gettext catalogues: the text form (`.po`) and the compiled form (`.mo`). A message's context (`msgctxt`) is kept
/// for `--skip-context`; a plural message gives its first form; fuzzy and untranslated entries are left out.
enum GettextReader {
    static func mo(_ data: Data, path: String) throws(ImportError) -> [LocalisedString] {
        let bytes = [UInt8](data)
        func word(_ offset: Int, bigEndian: Bool) throws(ImportError) -> Int {
            guard offset >= 0, offset + 4 <= bytes.count else {
                throw .malformed(SourceLocation(file: path, line: 0), "truncated .mo file: byte \(offset) is past its \(bytes.count) bytes")
            }
            let b = bytes[offset..<offset + 4].map(UInt32.init)
            return Int(bigEndian ? b[0] << 24 | b[1] << 16 | b[2] << 8 | b[3] : b[3] << 24 | b[2] << 16 | b[1] << 8 | b[0])
        }
        let magic = try word(0, bigEndian: false)
        guard magic == 0x950412de || magic == 0xde120495 else {
            throw .malformed(SourceLocation(file: path, line: 0), "not a gettext .mo file (no magic number)")
        }
        let big = magic == 0xde120495
        let count = try word(8, bigEndian: big), originals = try word(12, bigEndian: big), translations = try word(16, bigEndian: big)
        func string(_ table: Int, _ index: Int) throws(ImportError) -> [String] {
            let length = try word(table + 8 * index, bigEndian: big), start = try word(table + 8 * index + 4, bigEndian: big)
            guard start + length <= bytes.count else {
                throw .malformed(SourceLocation(file: path, line: 0), "truncated .mo file: string \(index) ends past its \(bytes.count) bytes")
            }
            return bytes[start..<start + length].split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        }
        let domain = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        var strings: [LocalisedString] = []
        for index in 0..<count {
            let original = try string(originals, index), translation = try string(translations, index)
            guard let key = original.first, !key.isEmpty, let text = translation.first, !text.isEmpty else { continue }
            let parts = key.split(separator: "\u{4}", maxSplits: 1, omittingEmptySubsequences: false)
            let context = parts.count == 2 ? String(parts[0]) : "", english = String(parts.last ?? "")
            strings.append(LocalisedString(text: text, english: english, cluster: domain, context: context,
                                           location: SourceLocation(file: path, line: index + 1)))
        }
        return strings
    }

    static func po(_ data: Data, path: String) throws(ImportError) -> [LocalisedString] {
        guard let source = String(data: data, encoding: .utf8) else {
            throw .malformed(SourceLocation(file: path, line: 0), "not UTF-8 text")
        }
        let domain = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        var strings: [LocalisedString] = []
        var fields: [String: String] = [:], current: String?, fuzzy = false, entryLine = 0
        var translated: Bool { fields.keys.contains { $0.hasPrefix("msgstr") } }
        func flush() {
            defer { fields = [:]; current = nil; fuzzy = false }
            let text = fields["msgstr"] ?? fields["msgstr[0]"] ?? ""
            guard !fuzzy, let english = fields["msgid"], !english.isEmpty, !text.isEmpty else { return }
            strings.append(LocalisedString(text: text, english: english, cluster: domain, context: fields["msgctxt"] ?? "",
                                           location: SourceLocation(file: path, line: entryLine)))
        }
        for (offset, raw) in source.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces), number = offset + 1
            if line.isEmpty { if !fields.isEmpty { flush() }; continue }
            if line.hasPrefix("#") {
                if translated { flush() }
                if line.hasPrefix("#,"), line.contains("fuzzy") { fuzzy = true }
                continue
            }
            if line.hasPrefix("\"") {
                guard let key = current else { throw .malformed(SourceLocation(file: path, line: number), "a string continues no keyword") }
                fields[key, default: ""] += try quoted(line, SourceLocation(file: path, line: number))
                continue
            }
            guard let space = line.firstIndex(of: " ") else {
                throw .malformed(SourceLocation(file: path, line: number), "expected a keyword and a quoted string")
            }
            let key = String(line[..<space])
            guard ["msgctxt", "msgid", "msgid_plural", "msgstr"].contains(key) || key.hasPrefix("msgstr[") else {
                throw .malformed(SourceLocation(file: path, line: number), "unknown keyword '\(key)'")
            }
            if key == "msgctxt" || key == "msgid", translated { flush() }
            if fields.isEmpty { entryLine = number }
            current = key
            fields[key] = try quoted(line[line.index(after: space)...].trimmingCharacters(in: .whitespaces), SourceLocation(file: path, line: number))
        }
        if !fields.isEmpty { flush() }
        return strings
    }

    /// The value of a C-style quoted string, escapes resolved.
    static func quoted<S: StringProtocol>(_ text: S, _ location: SourceLocation) throws(ImportError) -> String {
        guard text.count >= 2, text.first == "\"", text.last == "\"" else { throw .malformed(location, "expected a quoted string") }
        var out = "", escaped = false
        for character in text.dropFirst().dropLast() {
            if escaped {
                switch character {
                case "n": out.append("\n")
                case "t": out.append("\t")
                default: out.append(character)
                }
                escaped = false
            } else if character == "\\" { escaped = true } else { out.append(character) }
        }
        guard !escaped else { throw .malformed(location, "a string ends inside an escape") }
        return out
    }
}
