
/// GitHub-flavoured Markdown tables.
package enum MarkdownWriter {
    /// Renders `table` with a `###` heading unless `heading` is false.
    package static func render(_ table: ReportTable, heading: Bool = true) -> String {
        var out = heading ? "### \(inline(table.title))\n\n" : ""
        out += "| " + table.columns.map { escape($0.title) }.joined(separator: " | ") + " |\n"
        out += "|" + table.columns.map { $0.alignRight ? " ---: |" : " --- |" }.joined() + "\n"
        for row in table.rows {
            out += "| " + row.map { escape($0.display) }.joined(separator: " | ") + " |\n"
        }
        if table.rows.isEmpty { out += "\n_(no rows)_\n" }
        return out
    }

    /// A table cell: `ReportText.cell`.
    static func escape(_ text: String) -> String { ReportText.cell(text) }

    /// Data in Markdown prose: `ReportText.markdown`.
    package static func inline(_ text: String) -> String { ReportText.markdown(text) }
}
