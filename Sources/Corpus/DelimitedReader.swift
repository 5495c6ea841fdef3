import Support
import Foundation
import ByteIO

/// Reads TSV and CSV corpora with a header row naming the columns, a block of lines at a time.
struct DelimitedReader {
    static let requiredColumns = ["id", "lang", "text"]

    let file: String
    let format: CorpusFormat
    private var csv = CSVParser()
    /// The header's column names once read; its first row is the header, whatever it holds.
    private var columns: [String]?
    private var index: [String: Int] = [:]
    /// A header without the required columns: its problem is reported once and the rows are not read.
    private var refused = false

    init(file: String, format: CorpusFormat) {
        self.file = file
        self.format = format
    }

    mutating func read(_ lines: [TextLines.Line]) -> FileReadResult {
        var result = FileReadResult()
        switch format {
        case .csv:
            take(csv.feed(lines), into: &result)
        default:
            take(lines.map { ($0.number, Self.tabCells($0.text)) }, into: &result)
        }
        return result
    }

    /// Whether the header row has been read (rows are read alike from then on, unless CSV).
    var hasReadHeader: Bool { columns != nil }

    /// Where a TSV's columns are, once its header is read and accepted (nil before, for CSV, and for a
    /// refused header): what `PlainTSVRows` needs to read rows without this reader.
    var tsvLayout: TSVLayout? {
        guard format == .tsv, !refused, let columns, let id = index["id"], let lang = index["lang"], let text = index["text"] else { return nil }
        return TSVLayout(count: columns.count, id: id, lang: lang, text: text, tags: index["tags"], history: index["history"])
    }

    /// The cells of a TSV line, split on the tab byte: a tab is always a grapheme of its own, so this
    /// equals splitting the Characters, at a fraction of the cost (this ran longer than detecting the
    /// items); empty cells are kept.
    static func tabCells(_ line: String) -> [String] {
        var line = line
        return line.withUTF8Bytes { bytes in
            var cells: [String] = []
            var start = 0
            while let end = bytes.firstIndex(of: 0x09, from: start) {
                cells.append(bytes.string(start..<end))
                start = end + 1
            }
            cells.append(bytes.string(start..<bytes.count))
            return cells
        }
    }

    /// At the end of the file: a CSV quoted cell left open.
    func finish() -> [CorpusProblem] {
        guard format == .csv, let open = csv.finish() else { return [] }
        return [CorpusProblem(SourceLocation(file: file, line: open.line), open.message)]
    }

    private mutating func take(_ rows: [(line: Int, cells: [String])], into result: inout FileReadResult) {
        var rows = rows[...]
        if columns == nil, let header = rows.popFirst() {
            let names = header.cells.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            columns = names
            let missing = Self.requiredColumns.filter { !names.contains($0) }
            if !missing.isEmpty {
                let list = missing.map { "'\($0)'" }.joined(separator: ", ")
                result.problems.append(CorpusProblem(SourceLocation(file: file, line: header.line),
                                                     "missing column \(list) in header (expected id, lang, text, tags[, history])"))
                refused = true
            }
            index = names.firstPositions
        }
        guard !refused, let columns else { return }
        // Each named column's cell, looked up once for every row.
        let id = index["id"], lang = index["lang"], text = index["text"], tags = index["tags"], history = index["history"]
        for row in rows {
            let location = SourceLocation(file: file, line: row.line)
            if row.cells.count == 1 && row.cells[0].isEmpty { continue }  // blank line
            // More cells than the header names would be dropped: an error, unless they are all empty (trailing separators).
            if row.cells.count < columns.count || row.cells.dropFirst(columns.count).contains(where: { !$0.isEmpty }) {
                result.problems.append(CorpusProblem(location, "expected \(columns.count) columns, found \(row.cells.count)"))
                continue
            }
            func cell(_ column: Int?) -> String? { column.map { row.cells[$0] } }
            var record = RawRecord(location: location, id: cell(id), lang: cell(lang), text: cell(text))
            record.tags = TagList.parse(cell(tags) ?? "")
            if let history = cell(history), !history.isEmpty { record.historyJSON = history }
            result.records.append(record)
        }
    }
}

/// The cell numbers of a TSV's columns, from its header.
struct TSVLayout: Sendable {
    /// Cells a row must have (the header's).
    var count: Int
    var id: Int
    var lang: Int
    var text: Int
    var tags: Int?
    var history: Int?
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
