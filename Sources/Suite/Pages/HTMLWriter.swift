import Support

/// HTML tables from the same `ReportTable`s the CSV, Markdown and JSON writers render, so the page
/// cannot show other figures. Every name and cell goes through `ReportText.html`.
package enum HTMLWriter {
    /// At most this many rows of one drill-down table reach the page; the rest are counted and left to the CSV.
    package static let defaultRowCap = 5_000
    /// Longer corpus texts and replies are cut to this many characters on the page (the files keep them whole).
    package static let textCap = 1_000

    /// A column title that wraps onto at most two lines however narrow its column: every space but the one nearest its
    /// middle is a no-break space and a hyphen is joined to the word after it (a table scrolls sideways rather than
    /// stack a title word by word).
    static func twoLines(_ title: String) -> String {
        let characters = Array(title)
        let spaces = characters.indices.filter { characters[$0] == " " }
        let middle = spaces.min { abs($0 * 2 - characters.count) < abs($1 * 2 - characters.count) }
        return characters.indices.map { index -> String in
            switch characters[index] {
            case " ": index == middle ? " " : "\u{00A0}"
            case "-": "-\u{2060}"
            default: String(characters[index])
            }
        }.joined()
    }

    /// `table` as a captioned `<table>`; `id` names it for links and the test; `filters` are the column
    /// names a reader can filter by (the page's script builds the controls, so a page without script has
    /// none that do nothing); `rowCount` is the table's rows in all when `table` holds only the first
    /// of them (at least `rowCap` of those); `rowIDs` give each row an anchor.
    package static func render(_ table: ReportTable, id: String, filters: [String] = [], rowCap: Int = defaultRowCap,
                              rowCount: Int? = nil, rowIDs: [String]? = nil, overflowNote: String = "", links: [[String?]]? = nil) -> String {
        let rows = rowCount ?? table.rows.count
        var out = "<table id=\"\(ReportText.html(id))\" data-rows=\"\(rows)\""
        if !filters.isEmpty { out += " data-filters=\"\(ReportText.html(filters.joined(separator: " ")))\"" }
        out += ">\n<caption>\(ReportText.html(table.title))</caption>\n<thead><tr>"
        for column in table.columns {
            out += "<th scope=\"col\" data-col=\"\(ReportText.html(column.name))\"\(column.alignRight ? " class=\"num\"" : "")>\(ReportText.html(Self.twoLines(column.title)))</th>"
        }
        out += "</tr></thead>\n<tbody>\n"
        for (index, row) in table.rows.prefix(rowCap).enumerated() {
            out += rowIDs.map { "<tr id=\"\(ReportText.html($0[index]))\">" } ?? "<tr>"
            for (columnIndex, (column, cell)) in zip(table.columns, row).enumerated() {
                let text = Self.cell(cell)
                // A link only around a cell with something to follow (`links[row][column]`, an anchor on this page).
                let href = links.flatMap { $0.indices.contains(index) && $0[index].indices.contains(columnIndex) ? $0[index][columnIndex] : nil }
                let content = href.map { "<a href=\"\(ReportText.html($0))\">\(text)</a>" } ?? text
                // Cells never wrap (numbers, codes, intervals such as 46.9–51.2) unless they hold prose: longer text with spaces.
                let prose: Bool = if case .text(let value) = cell { value.count > 24 && value.contains(" ") } else { false }
                out += "<td\(column.alignRight ? " class=\"num\"" : prose ? " class=\"w\"" : "")>\(content)</td>"
            }
            out += "</tr>\n"
        }
        if table.rows.isEmpty { out += "<tr><td colspan=\"\(table.columns.count)\">(no rows)</td></tr>\n" }
        out += "</tbody>\n</table>\n"
        if rows > rowCap {
            out += "<p class=\"note\">Showing the first \(rowCap) of \(rows) rows; the other \(rows - rowCap) are counted here and listed in "
                + ReportText.html(overflowNote) + ".</p>\n"
        }
        return out
    }

    /// A cell as text, a boolean as a mark and a word (colour never carries the meaning alone).
    static func cell(_ cell: ReportCell) -> String {
        switch cell {
        case .bool(true): "<span class=\"yes\">✓ true</span>"
        case .bool(false): "<span class=\"no\">✗ false</span>"
        case .text(let text) where text.count > textCap:
            ReportText.html(String(text.prefix(textCap))) + "<span class=\"note\"> … (\(text.count) characters)</span>"
        default: ReportText.html(cell.display)
        }
    }
}
