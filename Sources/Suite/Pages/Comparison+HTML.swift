import Support
import Checks
import Comparison

/// The comparison as one self-contained HTML page: the verdict, every check with its interval, and for
/// each regressed or improved check the items that moved, linked into the page's item table.
extension Comparison {
    package var html: String {
        var page = HTMLPage(title: "LangBench compare")
        let words = regressions.isEmpty ? "✓ pass: no regression" : "✗ regression: \(regressions.count) check(s) regressed"
        page.headline("Verdict", verdict: (words, verdict), lines: [
            "Base \(base) → current \(current).", "\(checks.count) checks, \(regressions.count) regressed, \(improvements.count) improved.",
            "Family-wise α = \(thresholds.alpha)\(alphaSplitText), Holm within each kind of check."])
        page.list(notes)
        if !environment.isEmpty { page.table(environmentTable, id: "environment") }
        var moved = ReportTable(title: "Items that moved", columns: [.init("check"), .init("item_id"), .numeric("repeat"), .init("change"), .init("detail")])
        var anchors: [String] = []
        for (title, status) in [("Regressions", MetricCheck.Status.regression), ("Improvements", .improvement)] {
            let those = checks.filter { $0.status == status }
            guard !those.isEmpty else { continue }
            page.table(table(those, title: title), id: title.lowercased())
            for check in those {
                guard let items = check.moved, !items.isEmpty else { continue }
                let name = "\(check.metric) \(check.key)"
                let total = check.movedTotal ?? items.count
                page.heading("\(total) item(s) moved in \(name)", level: 3)
                var links: [(anchor: String, text: String)] = []
                for item in items {
                    let anchor = "moved-\(anchors.count)"
                    moved.append([.text(name), .text(item.item), item.repeatIndex.map(ReportCell.int) ?? .empty, .text(item.change), .text(item.detail)])
                    anchors.append(anchor)
                    links.append((anchor, "\(item.name): \(item.change), \(item.detail)"))
                }
                page.links(links)
                if total > items.count { page.paragraph("and \(total - items.count) more, counted here and not listed (moved_total in --format json).") }
            }
        }
        page.table(table(checks, title: "Every check"), id: "checks", filters: ["metric"])
        page.heading("Items that moved", id: "moved")
        page.table(moved, id: "moved-items", filters: ["check", "change"], rowIDs: anchors, overflowNote: "the JSON comparison (--format json)")
        return page.html
    }

}
