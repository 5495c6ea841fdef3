/// An RFC 4180 parser over already-decoded lines: quoted cells may contain commas, doubled quotes
/// and line breaks. Each row carries the line number it starts on.
enum CSVParser {
    struct Output {
        var rows: [(line: Int, cells: [String])] = []
        var problems: [(line: Int, message: String)] = []
    }

    static func parse(lines: [TextLines.Line]) -> Output {
        var output = Output()
        var cells: [String] = []
        var cell = ""
        var inQuotes = false
        var rowStart = 0
        for line in lines {
            if !inQuotes { rowStart = line.number } else { cell.append("\n") }
            var chars = line.text.makeIterator()
            var afterQuote = false
            while let ch = chars.next() {
                if inQuotes {
                    if ch == "\"" { inQuotes = false; afterQuote = true } else { cell.append(ch) }
                } else if afterQuote && ch == "\"" {
                    cell.append("\""); inQuotes = true; afterQuote = false
                } else if ch == "," {
                    cells.append(cell); cell = ""; afterQuote = false
                } else if ch == "\"" && cell.isEmpty {
                    inQuotes = true
                } else {
                    cell.append(ch); afterQuote = false
                }
            }
            if !inQuotes {
                cells.append(cell)
                output.rows.append((rowStart, cells))
                cells = []
                cell = ""
            }
        }
        if inQuotes {
            output.problems.append((rowStart, "unterminated quoted cell (a '\"' opened here is never closed)"))
        }
        return output
    }
}
