/// An RFC 4180 parser over already-decoded lines, fed a block of lines at a time: quoted cells may
/// contain commas, doubled quotes and line breaks (also across blocks). Each row carries the line
/// number it starts on.
struct CSVParser {
    private var cells: [String] = []
    private var cell = ""
    private var inQuotes = false
    private var rowStart = 0

    /// The rows completed by `lines`; a row still inside a quoted cell waits for the next block.
    mutating func feed(_ lines: [TextLines.Line]) -> [(line: Int, cells: [String])] {
        var rows: [(line: Int, cells: [String])] = []
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
                rows.append((rowStart, cells))
                cells = []
                cell = ""
            }
        }
        return rows
    }

    /// At the end of the file: a quoted cell still open is a problem (its row is dropped).
    func finish() -> (line: Int, message: String)? {
        inQuotes ? (rowStart, "unterminated quoted cell (a '\"' opened here is never closed)") : nil
    }
}
