/// One table of a report: the single schema that CSV, Markdown and JSON writers all render, so the
/// formats cannot disagree.
package struct ReportTable: Sendable, Hashable {
    /// A column: stable snake_case `name` (CSV header, JSON key) and a human `title` (Markdown).
    package struct Column: Sendable, Hashable {
        package var name: String
        package var title: String
        package var alignRight: Bool

        package init(_ name: String, title: String? = nil, alignRight: Bool = false) {
            self.name = name
            self.title = title ?? name
            self.alignRight = alignRight
        }

        /// A numeric column, right-aligned in Markdown.
        package static func numeric(_ name: String, title: String? = nil) -> Column {
            Column(name, title: title, alignRight: true)
        }
    }

    package var title: String
    package var columns: [Column]
    package var rows: [[ReportCell]]

    package init(title: String, columns: [Column], rows: [[ReportCell]] = []) {
        self.title = title
        self.columns = columns
        self.rows = rows
    }

    package mutating func append(_ row: [ReportCell]) {
        precondition(row.count == columns.count, "row of \(row.count) cells for \(columns.count) columns in '\(title)'")
        rows.append(row)
    }
}

extension ReportTable: Encodable {
    private struct DynamicKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    private struct Row: Encodable {
        var columns: [Column]
        var cells: [ReportCell]
        func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: DynamicKey.self)
            for (column, cell) in zip(columns, cells) {
                try container.encode(cell, forKey: DynamicKey(stringValue: column.name))
            }
        }
    }

    private enum CodingKeys: String, CodingKey { case title, columns, rows }

    package func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(title, forKey: .title)
        try container.encode(columns.map(\.name), forKey: .columns)
        try container.encode(rows.map { Row(columns: columns, cells: $0) }, forKey: .rows)
    }
}
