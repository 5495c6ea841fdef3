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
            rows = lines.map { ($0.number, $0.text.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)) }
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
        cell.split(separator: ";").map { ItemValidator.trimmed(String($0)) }.filter { !$0.isEmpty }
    }
}
