/// Reads TSV and CSV corpora with a header row naming the columns.
enum DelimitedReader {
    static let requiredColumns = ["id", "lang", "text"]

    static func read(lines: [TextLines.Line], file: String, format: CorpusFormat) -> FileReadResult {
        var result = FileReadResult()
        let rows: [(line: Int, cells: [String])]
        switch format {
        case .csv:
            let parsed = CSVParser.parse(lines: lines)
            rows = parsed.rows
            result.problems += parsed.problems.map { CorpusProblem(SourceLocation(file: file, line: $0.line), $0.message) }
        default:
            // Split on the tab byte: a tab is always a grapheme of its own, so this equals splitting the
            // Characters, at a fraction of the cost (this ran longer than detecting the items).
            rows = lines.map { line in
                (line.number, line.text.utf8.split(separator: 0x09, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) })
            }
        }
        guard let header = rows.first else { return result }
        let columns = header.cells.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        let missing = requiredColumns.filter { !columns.contains($0) }
        if !missing.isEmpty {
            let names = missing.map { "'\($0)'" }.joined(separator: ", ")
            result.problems.append(CorpusProblem(SourceLocation(file: file, line: header.line),
                                                 "missing column \(names) in header (expected id, lang, text, tags[, history])"))
            return result
        }
        let index = Dictionary(columns.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        for row in rows.dropFirst() {
            let location = SourceLocation(file: file, line: row.line)
            if row.cells.count == 1 && row.cells[0].isEmpty { continue }  // blank line
            // More cells than the header names would be dropped: an error, unless they are all empty (trailing separators).
            if row.cells.count < columns.count || row.cells.dropFirst(columns.count).contains(where: { !$0.isEmpty }) {
                result.problems.append(CorpusProblem(location, "expected \(columns.count) columns, found \(row.cells.count)"))
                continue
            }
            func cell(_ name: String) -> String? { index[name].map { row.cells[$0] } }
            var record = RawRecord(location: location, id: cell("id"), lang: cell("lang"), text: cell("text"))
            record.tags = TagList.parse(cell("tags") ?? "")
            if let history = cell("history"), !history.isEmpty { record.historyJSON = history }
            result.records.append(record)
        }
        return result
    }
}

/// Tags are written `a;b;c` in delimited formats.
enum TagList {
    static func parse(_ cell: String) -> [String] {
        if !cell.utf8.contains(UInt8(ascii: ";")) {  // one tag or none: the common case, without splitting
            let tag = ItemValidator.trimmed(cell)
            return tag.isEmpty ? [] : [tag]
        }
        return cell.split(separator: ";").map { ItemValidator.trimmed(String($0)) }.filter { !$0.isEmpty }
    }
}
