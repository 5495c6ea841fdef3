import Foundation

/// A grouped horizontal bar chart as standalone SVG (no scripts, no external fonts), e.g. accuracy by
/// length bucket per config, or latency by route.
package struct SVGBarChart: Sendable {
    /// One group of bars (a category on the axis).
    package struct Group: Sendable {
        package var label: String
        /// One value per series; nil draws nothing.
        package var values: [Double?]
        package init(label: String, values: [Double?]) {
            self.label = label
            self.values = values
        }
    }

    package var title: String
    package var unit: String
    package var series: [String]
    package var groups: [Group]
    /// Axis maximum; nil scales to the largest value.
    package var maximum: Double?

    package init(title: String, unit: String, series: [String], groups: [Group], maximum: Double? = nil) {
        self.title = title
        self.unit = unit
        self.series = series
        self.groups = groups
        self.maximum = maximum
    }

    static let palette = ["#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1", "#9c755f"]

    package func render() -> String {
        let labelWidth = 150.0, plotWidth = 420.0, barHeight = 14.0, gap = 10.0, top = 44.0
        let legendHeight = 18.0 * Double((series.count + 2) / 3)
        let groupHeight = Double(series.count) * barHeight + gap
        let height = top + Double(groups.count) * groupHeight + 30 + legendHeight
        let width = labelWidth + plotWidth + 70
        let top_ = groups.flatMap(\.values).compactMap { $0 }.max() ?? 1
        let scaleMax = max(maximum ?? top_, 1e-9)
        var svg = SVG.header(width: width, height: height, title: title)
        svg += SVG.text(x: 10, y: 22, title, size: 15, weight: "bold")
        for (g, group) in groups.enumerated() {
            let y0 = top + Double(g) * groupHeight
            svg += SVG.text(x: labelWidth - 8, y: y0 + Double(series.count) * barHeight / 2 + 4, group.label, anchor: "end")
            for (s, value) in group.values.enumerated() {
                guard let value else { continue }
                let y = y0 + Double(s) * barHeight
                let w = max(0, min(value / scaleMax, 1)) * plotWidth
                svg += "<rect x=\"\(SVG.f(labelWidth))\" y=\"\(SVG.f(y))\" width=\"\(SVG.f(w))\" height=\"\(SVG.f(barHeight - 2))\" fill=\"\(Self.palette[s % Self.palette.count])\"/>\n"
                svg += SVG.text(x: labelWidth + w + 4, y: y + barHeight - 4, SVG.number(value) + unit, size: 10)
            }
        }
        let axisY = top + Double(groups.count) * groupHeight
        svg += "<line x1=\"\(SVG.f(labelWidth))\" y1=\"\(SVG.f(top - 4))\" x2=\"\(SVG.f(labelWidth))\" y2=\"\(SVG.f(axisY))\" stroke=\"#333\"/>\n"
        for (s, name) in series.enumerated() {
            let x = 10 + Double(s % 3) * 200, y = axisY + 22 + Double(s / 3) * 18
            svg += "<rect x=\"\(SVG.f(x))\" y=\"\(SVG.f(y - 10))\" width=\"12\" height=\"12\" fill=\"\(Self.palette[s % Self.palette.count])\"/>\n"
            svg += SVG.text(x: x + 16, y: y, name, size: 11)
        }
        return svg + "</svg>\n"
    }
}

/// Small helpers shared by the SVG writers.
enum SVG {
    static func header(width: Double, height: Double, title: String) -> String {
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(f(width))\" height=\"\(f(height))\" viewBox=\"0 0 \(f(width)) \(f(height))\" font-family=\"sans-serif\" font-size=\"12\">\n<title>\(escape(title))</title>\n<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n"
    }

    static func text(x: Double, y: Double, _ content: String, size: Int = 12, anchor: String = "start", weight: String = "normal", fill: String = "#222") -> String {
        "<text x=\"\(f(x))\" y=\"\(f(y))\" font-size=\"\(size)\" text-anchor=\"\(anchor)\" font-weight=\"\(weight)\" fill=\"\(fill)\">\(escape(content))</text>\n"
    }

    static func f(_ value: Double) -> String { String(format: "%.1f", value) }

    static func number(_ value: Double) -> String {
        abs(value) >= 100 ? String(format: "%.0f", value) : String(format: "%.1f", value)
    }

    static func escape(_ text: String) -> String { ReportText.xml(text) }
}
