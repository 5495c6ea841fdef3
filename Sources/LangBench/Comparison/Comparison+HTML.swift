/// The comparison as one self-contained HTML page: the verdict, every check with its interval, and for
/// each regressed or improved check the items that moved, linked into the page's item table.
extension Comparison {
    public var html: String {
        var page = HTMLPage(title: "LangBench compare")
        let words = regressions.isEmpty ? "✓ pass: no regression" : "✗ regression: \(regressions.count) check(s) regressed"
        page.headline("Verdict", verdict: (words, verdict), lines: [
            "Base \(base) → current \(current).", "\(checks.count) checks, \(regressions.count) regressed, \(improvements.count) improved."])
        page.list(notes)
        var moved = ReportTable(title: "Items that moved", columns: [.init("check"), .init("item")])
        var anchors: [String] = []
        for (title, status) in [("Regressions", MetricCheck.Status.regression), ("Improvements", .improvement)] {
            let those = checks.filter { $0.status == status }
            guard !those.isEmpty else { continue }
            page.table(table(those, title: title), id: title.lowercased())
            for check in those {
                let items = movedItems(check)
                guard !items.isEmpty else { continue }
                let name = "\(check.metric) \(check.key)"
                page.heading("\(items.count) item(s) moved in \(name)", level: 3)
                var links: [(anchor: String, text: String)] = []
                for item in items {
                    let anchor = "moved-\(anchors.count)"
                    moved.append([.text(name), .text(item)])
                    anchors.append(anchor)
                    if links.count < 200 { links.append((anchor, item)) }
                }
                page.links(links)
                if items.count > links.count { page.paragraph("and \(items.count - links.count) more in the item table.") }
            }
        }
        page.table(table(checks, title: "Every check"), id: "checks", filters: ["metric"])
        page.heading("Items that moved", id: "moved")
        page.table(moved, id: "moved-items", filters: ["check"], rowIDs: anchors, overflowNote: "the JSON comparison (--format json)")
        return page.html
    }

    /// The items (or records) behind a regressed or improved check, as the comparison names them.
    func movedItems(_ check: MetricCheck) -> [String] {
        if check.metric == "detection.accuracy", check.key.hasPrefix("config="), !check.key.contains("lang=") {
            return brokenItems[String(check.key.dropFirst("config=".count))] ?? []
        }
        return check.changes ?? []
    }
}
