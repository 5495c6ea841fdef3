import Foundation

/// RFC 4180 CSV: UTF-8, header row, CRLF-free (LF) line ends, quoting where needed, and cells that a
/// spreadsheet would run as a formula (`= + - @`, tab, CR) prefixed with `'`.
package enum CSVWriter {
    package static func render(_ table: ReportTable) -> String {
        var out = table.columns.map { escape(neutralise($0.name)) }.joined(separator: ",") + "\n"
        for row in table.rows {
            out += row.map { cell in
                if case .text(let text) = cell { return escape(neutralise(text)) }
                return escape(cell.display)
            }.joined(separator: ",") + "\n"
        }
        return out
    }

    /// Neutralises spreadsheet formula injection (OWASP): text starting with = + - @ TAB CR.
    package static func neutralise(_ text: String) -> String {
        guard let first = text.first, ["=", "+", "-", "@", "\t", "\r"].contains(first) else { return text }
        return "'" + text
    }

    package static func escape(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
