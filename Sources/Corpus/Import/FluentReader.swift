import Foundation

/// Fluent (`.ftl`): each message's value and each of its attributes is a string; a value continued on indented
/// lines is joined with spaces. Terms (`-brand-name`) are read like messages: the filters drop what is not a phrase.
enum FluentReader {
    static func read(_ data: Data, path: String, cluster: String) throws(ImportError) -> [LocalisedString] {
        guard let source = String(data: data, encoding: .utf8) else {
            throw .malformed(SourceLocation(file: path, line: 0), "not UTF-8 text")
        }
        var strings: [LocalisedString] = []
        var message = "", open: (text: String, context: String, line: Int)?
        func close() {
            if let entry = open, !entry.text.isEmpty {
                strings.append(LocalisedString(text: entry.text, cluster: cluster, context: entry.context,
                                               location: SourceLocation(file: path, line: entry.line)))
            }
            open = nil
        }
        for (offset, raw) in source.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = offset + 1, line = raw.hasSuffix("\r") ? raw.dropLast() : raw[...]
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty { continue }
            if line.first == "#" { close(); continue }
            let indented = line.first == " " || line.first == "\t"
            if let (name, value) = assignment(trimmed), !indented || name.hasPrefix(".") {
                close()
                if !indented { message = name }
                open = (value, name.hasPrefix(".") ? message + name : name, number)
            } else if indented, open != nil {
                open!.text += (open!.text.isEmpty ? "" : " ") + trimmed
            } else if indented {
                continue
            } else {
                throw .malformed(SourceLocation(file: path, line: number), "not Fluent syntax: expected 'id = value', a comment or an indented line")
            }
        }
        close()
        return strings
    }

    /// `id = value` or `.attribute = value`, the value trimmed (possibly empty when it starts on the next line).
    static func assignment(_ line: String) -> (String, String)? {
        guard let equals = line.firstIndex(of: "=") else { return nil }
        let name = line[..<equals].trimmingCharacters(in: .whitespaces)
        let body = name.hasPrefix(".") ? name.dropFirst() : name.hasPrefix("-") ? name.dropFirst() : name[...]
        guard let first = body.first, first.isLetter,
              body.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) else { return nil }
        return (name, line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces))
    }
}
