/// A titled list of tables rendered as Markdown or JSON (used for small reports such as corpus stats).
package struct ReportDocument: Sendable, Encodable {
    package var title: String
    package var tables: [ReportTable]
    package var schemaVersion = 1

    package init(title: String, tables: [ReportTable]) {
        self.title = title
        self.tables = tables
    }

    package var markdown: String {
        "## \(title)\n\n" + tables.map { MarkdownWriter.render($0) }.joined(separator: "\n")
    }

    package var json: String {
        (try? JSONOutput.encode(self)) ?? "{}\n"  // encoding strings, ints and doubles cannot fail
    }

    private enum CodingKeys: String, CodingKey {
        case title, tables
        case schemaVersion = "schema_version"
    }
}
