/// A confusion-matrix heatmap as standalone SVG: rows are gold labels, columns predictions, each
/// cell shaded by its share of the row and labelled with its count.
package struct SVGHeatmap: Sendable {
    package var title: String
    package var rowLabels: [String]
    package var columnLabels: [String]
    /// counts[row][column]
    package var counts: [[Int]]
    /// Where a cell with a count links, given its row and column label (nil: no links; a standalone file has none).
    package var link: (@Sendable (_ row: String, _ column: String) -> String?)?

    package init(title: String, rowLabels: [String], columnLabels: [String], counts: [[Int]],
                link: (@Sendable (_ row: String, _ column: String) -> String?)? = nil) {
        self.title = title
        self.rowLabels = rowLabels
        self.columnLabels = columnLabels
        self.counts = counts
        self.link = link
    }

    package func render() -> String {
        let cell = 44.0, left = 70.0, top = 70.0
        let width = left + cell * Double(columnLabels.count) + 20
        let height = top + cell * Double(rowLabels.count) + 40
        var svg = SVG.header(width: width, height: height, title: title)
        svg += SVG.text(x: 10, y: 20, title, size: 14, weight: "bold")
        svg += SVG.text(x: left + cell * Double(columnLabels.count) / 2, y: 40, "predicted", size: 11, anchor: "middle", fill: "#555")
        for (c, label) in columnLabels.enumerated() {
            svg += SVG.text(x: left + cell * (Double(c) + 0.5), y: top - 8, label, anchor: "middle")
        }
        for (r, label) in rowLabels.enumerated() {
            let total = max(counts[r].reduce(0, +), 1)
            svg += SVG.text(x: left - 8, y: top + cell * (Double(r) + 0.5) + 4, label, anchor: "end")
            for (c, count) in counts[r].enumerated() {
                let share = Double(count) / Double(total)
                let diagonal = rowLabels[r] == columnLabels[c]
                let color = Self.color(share, diagonal: diagonal)
                let href = count > 0 ? link?(rowLabels[r], columnLabels[c]) : nil
                if let href { svg += "<a href=\"\(ReportText.html(href))\">" }
                svg += "<rect x=\"\(SVG.f(left + cell * Double(c)))\" y=\"\(SVG.f(top + cell * Double(r)))\" width=\"\(SVG.f(cell - 1))\" height=\"\(SVG.f(cell - 1))\" fill=\"\(color)\"/>\n"
                if count > 0 {
                    svg += SVG.text(x: left + cell * (Double(c) + 0.5), y: top + cell * (Double(r) + 0.5) + 4, String(count),
                                    size: 11, anchor: "middle", fill: share > 0.55 ? "#fff" : "#222")
                }
                if href != nil { svg += "</a>\n" }
            }
        }
        svg += SVG.text(x: 10, y: height - 12, "rows: gold language; shade: share of the row (blue correct, red confused)", size: 10, fill: "#555")
        return svg + "</svg>\n"
    }

    /// Blue for the diagonal, red off it; white at zero.
    static func color(_ share: Double, diagonal: Bool) -> String {
        let t = min(max(share, 0), 1)
        let (r, g, b) = diagonal ? (0x2b, 0x6c, 0xb0) : (0xc0, 0x39, 0x2b)
        func mix(_ channel: Int) -> Int { Int(255 - Double(255 - channel) * t) }
        return "#" + [mix(r), mix(g), mix(b)].map { String($0, radix: 16).leftPadded(2) }.joined()
    }
}

extension String {
    func leftPadded(_ width: Int, with pad: Character = "0") -> String {
        count >= width ? self : String(repeating: pad, count: width - count) + self
    }
}
