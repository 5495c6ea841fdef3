import Foundation

/// Reads one-phrase-per-line files whose language comes from the path: `ru.txt`, or lingua's
/// `ru/single-words.txt` (the stem becomes a tag), or `single-words/ru.txt`.
enum LinesReader {
    static func read(lines: [TextLines.Line], file: String, idPrefix: String, lang: String, tag: String?) -> FileReadResult {
        var result = FileReadResult()
        for line in lines {
            let text = line.text.trimmingCharacters(in: .whitespaces)
            if text.isEmpty { continue }
            var record = RawRecord(location: SourceLocation(file: file, line: line.number),
                                   id: "\(idPrefix):\(line.number)", lang: lang, text: text)
            if let tag { record.tags = [tag] }
            result.records.append(record)
        }
        return result
    }
}

/// Reads Tatoeba's `sentences.csv`: `id<TAB>ISO 639-3<TAB>text`. Rows whose language is `\N`
/// (undetermined in Tatoeba) are skipped and counted, not reported as problems. Not `DelimitedReader`:
/// the export has no header and three fixed columns, the text taken whole after the second tab.
enum TatoebaReader {
    static func read(lines: [TextLines.Line], file: String) -> (FileReadResult, skipped: Int) {
        var result = FileReadResult()
        var skipped = 0
        for line in lines where !line.text.isEmpty {
            let location = SourceLocation(file: file, line: line.number)
            let fields = line.text.split(separator: "\t", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 3 else {
                result.problems.append(CorpusProblem(location, "expected id<TAB>lang<TAB>text, found \(fields.count) field(s)"))
                continue
            }
            if fields[1] == "\\N" { skipped += 1; continue }
            result.records.append(RawRecord(location: location, id: "tatoeba-\(fields[0])", lang: fields[1], text: fields[2]))
        }
        return (result, skipped)
    }
}
