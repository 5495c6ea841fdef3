/// A titled list of tables rendered as Markdown or JSON (used for small reports such as corpus stats).
public struct ReportDocument: Sendable, Encodable {
    public var title: String
    public var tables: [ReportTable]
    public var schemaVersion = 1

    public init(title: String, tables: [ReportTable]) {
        self.title = title
        self.tables = tables
    }

    public var markdown: String {
        "## \(title)\n\n" + tables.map { MarkdownWriter.render($0) }.joined(separator: "\n")
    }

    public var json: String {
        (try? JSONOutput.encode(self)) ?? "{}\n"  // encoding strings, ints and doubles cannot fail
    }

    private enum CodingKeys: String, CodingKey {
        case title, tables
        case schemaVersion = "schema_version"
    }
}
