import Foundation
import Support
import ByteIO

/// Texts an import found in more than one language: `corpus import`'s ambiguity file (`id langs text sources`,
/// TSV with a header, languages `;`-separated), written beside its corpus (`X.tsv` → `X.ambiguous.tsv`). They never
/// enter a single-label corpus; detection scores each right when it names any of the text's languages.
package struct SharedTexts: Sendable {
    package struct Text: Sendable, Hashable {
        package var id: String
        package var languages: [LanguageCode]
        package var text: String
    }

    package var path: String
    package var sha256: String
    package var texts: [Text]

    /// The ambiguity file an import wrote beside `corpus`.
    package static func path(beside corpus: String) -> String {
        (corpus.hasSuffix(".tsv") ? String(corpus.dropLast(4)) : corpus) + ".ambiguous.tsv"
    }

    /// The name its tables go by: the file's name without `.ambiguous.tsv` (`outside`).
    package static func name(of path: String) -> String {
        let file = URL(fileURLWithPath: path).lastPathComponent
        return file.hasSuffix(".ambiguous.tsv") ? String(file.dropLast(".ambiguous.tsv".count)) : file
    }

    /// Reads the file, only the texts of `shard` when one is given (by id, as corpus items are sharded). A line that is
    /// not `id langs text sources` with at least two known languages is a problem naming its file and line.
    package static func load(_ path: String, shard: Shard? = nil) throws -> SharedTexts {
        let data: Data
        if let kind = FileKind.notRegular(path) { throw CorpusError.unreadable(path: path, reason: "\(kind); pass an ambiguity TSV file") }
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw CorpusError.unreadable(path: path, reason: FileKind.reason(error, path: path))
        }
        guard let contents = String(data: data, encoding: .utf8) else { throw CorpusError.unreadable(path: path, reason: "not UTF-8") }
        var texts: [Text] = [], problems: [CorpusProblem] = [], ids = Set<String>()
        // A few hundred sets of languages over ten thousand lines: each set parsed once (a code's parse is not free).
        var parsed: [Substring: [LanguageCode]] = [:]
        for (index, line) in contents.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = line.hasSuffix("\r") ? line.dropLast() : line
            if index == 0 || line.isEmpty { continue }  // the header; the final newline
            let location = SourceLocation(file: path, line: index + 1)
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count == 4, !fields[0].isEmpty, !fields[2].isEmpty else {
                problems.append(CorpusProblem(location, "expected 4 tab-separated fields (id langs text sources), found \(fields.count)"))
                continue
            }
            let id = String(fields[0])
            guard ids.insert(id).inserted else {
                problems.append(CorpusProblem(location, "duplicate id '\(id)'"))
                continue
            }
            do {
                let languages = try parsed[fields[1]] ?? fields[1].split(separator: ";").map { try LanguageCode(String($0)) }
                parsed[fields[1]] = languages
                guard Set(languages).count >= 2 else {
                    problems.append(CorpusProblem(location, "a shared text needs at least two languages, found '\(fields[1])'"))
                    continue
                }
                if shard?.contains(id) ?? true { texts.append(Text(id: id, languages: languages, text: String(fields[2]))) }
            } catch {
                problems.append(CorpusProblem(location, "\(error)"))
            }
        }
        if !problems.isEmpty { throw CorpusError.invalid(problems) }
        return SharedTexts(path: path, sha256: SHA256.hex(data), texts: texts)
    }
}
