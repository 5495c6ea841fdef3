/// GitHub-flavoured Markdown tables.
public enum MarkdownWriter {
    /// Renders `table` with a `###` heading unless `heading` is false.
    public static func render(_ table: ReportTable, heading: Bool = true) -> String {
        var out = heading ? "### \(inline(table.title))\n\n" : ""
        out += "| " + table.columns.map { escape($0.title) }.joined(separator: " | ") + " |\n"
        out += "|" + table.columns.map { $0.alignRight ? " ---: |" : " --- |" }.joined() + "\n"
        for row in table.rows {
            out += "| " + row.map { escape($0.display) }.joined(separator: " | ") + " |\n"
        }
        if table.rows.isEmpty { out += "\n_(no rows)_\n" }
        return out
    }

    static func escape(_ text: String) -> String {
        inline(text).replacingOccurrences(of: "|", with: "\\|")
    }

    /// Text from data (config names, tags, ids) made inert in Markdown: one line, and no HTML (`<script>`,
    /// `<img onerror>` render as text). Markdown emphasis is left alone: it cannot run anything.
    public static func inline(_ text: String) -> String {
        text.replacingOccurrences(of: "\r\n", with: " ").replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "\r", with: " ")
            .replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }
}
