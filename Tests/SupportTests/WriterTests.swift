@testable import Support
import Foundation
import TestSupport
import Testing

struct WriterTests {
    static let table: ReportTable = {
        var table = ReportTable(title: "Sample", columns: [.init("item_id"), .init("text"), .numeric("accuracy"), .numeric("n"), .init("ok")])
        table.append([.text("a1"), .text("=SUM(A1:A2)"), .percent(0.91234), .int(12), .bool(true)])
        table.append([.text("a2"), .text("comma, \"quote\"\nand newline"), .number(0.5, digits: 3), .int(3), .bool(false)])
        table.append([.text("a|3"), .text("-1 @home +x"), .empty, .int(0), .empty])
        return table
    }()

    @Test func csvGolden() {
        Snapshot.assert(CSVWriter.render(Self.table), named: "sample.csv")
    }

    @Test func csvNeutralisesFormulaCells() {
        let csv = CSVWriter.render(Self.table)
        #expect(csv.contains("'=SUM(A1:A2)"))
        #expect(csv.contains("'-1 @home +x"))
        #expect(!csv.contains(",=SUM"))
    }

    @Test func markdownGolden() {
        Snapshot.assert(MarkdownWriter.render(Self.table), named: "sample.md")
    }

    @Test func jsonGolden() throws {
        Snapshot.assert(try JSONOutput.encode(ReportDocument(title: "Sample", tables: [Self.table])), named: "sample.json")
    }

    @Test func barChartGolden() {
        let chart = SVGBarChart(title: "Accuracy by length", unit: "%", series: ["unconstrained", "constrained"],
                                groups: [.init(label: "1", values: [71.5, 88]), .init(label: "2-3", values: [90, nil])], maximum: 100)
        Snapshot.assert(chart.render(), named: "bar-chart.svg")
    }

    @Test func heatmapGolden() {
        let heatmap = SVGHeatmap(title: "Cyrillic confusion", rowLabels: ["ru", "uk"], columnLabels: ["ru", "uk"], counts: [[9, 1], [3, 7]])
        Snapshot.assert(heatmap.render(), named: "heatmap.svg")
    }

    @Test func svgEscapesText() {
        let chart = SVGBarChart(title: "a<b & \"c\"", unit: "", series: ["s"], groups: [.init(label: "<x>", values: [1])])
        let svg = chart.render()
        #expect(svg.contains("a&lt;b &amp; &quot;c&quot;"))
        #expect(!svg.contains("<x>"))
    }

    @Test func atomicWriteLeavesNoTemporaryFile() throws {
        let directory = try Fixture.temporaryDirectory()
        let url = directory.appendingPathComponent("report.md")
        try AtomicFile.write("one\n", to: url)
        try AtomicFile.write("two\n", to: url)
        #expect(try String(contentsOf: url, encoding: .utf8) == "two\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["report.md"])
    }

    @Test func atomicWriteReportsUnwritablePath() {
        #expect(throws: ReportError.self) { try AtomicFile.write("x", to: URL(fileURLWithPath: "/proc/nope/report.md")) }
    }
}
