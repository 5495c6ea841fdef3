import Support
import Generation
import Corpus

/// Every item's message and each route × variant reply side by side: one row per item (and repeat), one
/// column per route × variant, each cell the reply with its outcome, served ✓/✗, fallback reason and
/// timing. Cells carry their route, variant, outcome, served and "differs from the reference variant" as
/// data attributes, which the page's script filters by; without script it is a plain table.
struct GenerationSideBySide {
    /// One route × variant (the reference variant first).
    struct Column: Hashable {
        var route: Route
        var variant: String?
        var title: String { route.rawValue + (variant.map { " · \($0)" } ?? "") }
    }

    struct Row {
        var item: String
        var lang: String
        var repeatIndex: Int
        var cells: [Column: GenerationRecord]
    }

    let columns: [Column]
    let rows: [Row]
    /// Crisis-flagged items left out: counted, never shown.
    let hiddenCrisisItems: Int
    /// The first variant, which the others are compared with (nil in a run without variants).
    let reference: String?
    let repeats: Bool

    init(_ report: GenerationReport, crisis: Set<String>) {
        let flagged = crisis.union(report.records.filter { $0.fallbackReason == .crisisProtocol }.map(\.itemID))
        var variants: [String?] = report.settings.variants?.map(\.name) ?? []
        for record in report.records where !variants.contains(record.variant) { variants.append(record.variant) }
        let routes = Route.allCases.filter { route in report.records.contains { $0.route == route } }
        columns = variants.flatMap { variant in routes.map { Column(route: $0, variant: variant) } }
        reference = report.settings.variants?.first?.name ?? (variants.count > 1 ? variants[0] : nil)
        var byRow: [String: Row] = [:], hidden: Set<String> = []
        for record in report.records {
            if flagged.contains(record.itemID) { hidden.insert(record.itemID); continue }
            let key = GenerationRecord.key(item: record.itemID, route: .direct, repeatIndex: record.repeatIndex)
            byRow[key, default: Row(item: record.itemID, lang: record.lang.identifier, repeatIndex: record.repeatIndex, cells: [:])]
                .cells[Column(route: record.route, variant: record.variant)] = record
        }
        rows = byRow.values.sorted { ($0.item, $0.repeatIndex) < ($1.item, $1.repeatIndex) }
        hiddenCrisisItems = hidden.count
        repeats = report.records.contains { $0.repeatIndex > 0 }
    }

    /// Whether a non-reference variant's record differs from the reference's on the same route: in
    /// outcome, fallback reason or served in own language (replies of two prompts differ in words anyway).
    func differs(_ record: GenerationRecord, in row: Row) -> Bool {
        guard let reference, record.variant != reference, let base = row.cells[Column(route: record.route, variant: reference)] else { return false }
        return base.outcome != record.outcome || base.fallbackReason != record.fallbackReason
            || (base.servedInOwnLanguage == true) != (record.servedInOwnLanguage == true)
    }

    /// The anchor of an item's row.
    static func rowID(_ row: Row) -> String { "item-\(row.item)-\(row.repeatIndex)" }

    /// The table as HTML; `texts` and `replies` (keyed by `GenerationRecord.key`) give the message and replies.
    func html(id: String, title: String, texts: ItemTexts, replies: [String: String], rowCap: Int = HTMLWriter.defaultRowCap,
              overflowNote: String) -> String {
        let h = ReportText.html
        var out = "<table id=\"\(h(id))\" data-rows=\"\(rows.count)\" data-side-by-side=\"true\"" + (reference.map { " data-reference=\"\(h($0))\"" } ?? "") + ">\n"
        out += "<caption>\(h(title))</caption>\n<thead><tr><th scope=\"col\" data-col=\"item_id\">item_id</th><th scope=\"col\" data-col=\"lang\">lang</th>"
        if repeats { out += "<th scope=\"col\" data-col=\"repeat\" class=\"num\">repeat</th>" }
        out += "<th scope=\"col\" data-col=\"message\">message</th>"
        for column in columns { out += "<th scope=\"col\"\(Self.attributes(column))>\(h(column.title))</th>" }
        out += "</tr></thead>\n<tbody>\n"
        for row in rows.prefix(rowCap) {
            out += "<tr id=\"\(h(Self.rowID(row)))\" data-lang=\"\(h(row.lang))\"><td>\(h(row.item))</td><td>\(h(row.lang))</td>"
            if repeats { out += "<td class=\"num\">\(row.repeatIndex)</td>" }
            out += "<td>\(HTMLWriter.cell(.optionalText(texts.text(row.item))))</td>"
            for column in columns {
                guard let record = row.cells[column] else { out += "<td\(Self.attributes(column))>—</td>"; continue }
                let served = record.servedInOwnLanguage.map { $0 ? "true" : "false" } ?? ""
                out += "<td\(Self.attributes(column)) data-outcome=\"\(record.outcome.rawValue)\" data-served=\"\(served)\""
                    + " data-differs=\"\(differs(record, in: row))\"><div>\(HTMLWriter.cell(.optionalText(replies[record.key])))</div>"
                    + "<div class=\"note\">\(Self.facts(record, differs: differs(record, in: row)))</div></td>"
            }
            out += "</tr>\n"
        }
        if rows.isEmpty { out += "<tr><td colspan=\"\(columns.count + (repeats ? 4 : 3))\">(no rows)</td></tr>\n" }
        out += "</tbody>\n</table>\n"
        if rows.count > rowCap {
            out += "<p class=\"note\">Showing the first \(rowCap) of \(rows.count) items; the other \(rows.count - rowCap) are counted here and listed in \(h(overflowNote)).</p>\n"
        }
        return out
    }

    static func attributes(_ column: Column) -> String {
        " data-route=\"\(column.route.rawValue)\" data-variant=\"\(ReportText.html(column.variant ?? ""))\""
    }

    /// `model · ✓ served · reply uk ✓ as detected · TTFT 412 ms · total 820 ms`, escaped.
    static func facts(_ record: GenerationRecord, differs: Bool) -> String {
        var parts = [record.outcome.rawValue + (record.fallbackReason.map { " (\($0.rawValue))" } ?? "")]
        switch record.servedInOwnLanguage {
        case true?: parts.append("<span class=\"yes\">✓ served</span>")
        case false?: parts.append("<span class=\"no\">✗ not served</span>" + (record.notServedReason.map { " (" + ReportText.html($0) + ")" } ?? ""))
        case nil: break
        }
        // Fidelity: the reply in the language the pipeline detected (what it checks), in words as well as a mark.
        switch (record.replyLang, record.replyLangOK) {
        case let (lang?, true?): parts.append("reply " + ReportText.html(lang) + " <span class=\"yes\">✓ as detected</span>")
        case let (lang?, false?): parts.append("reply " + ReportText.html(lang) + " <span class=\"no\">✗ not as detected</span>")
        case let (lang?, nil): parts.append("reply " + ReportText.html(lang))
        default: break
        }
        parts.append("TTFT " + (record.ttftMs.map { ReportCell.number($0, digits: 0).display + " ms" } ?? "–"))
        parts.append("total " + ReportCell.number(record.totalMs, digits: 0).display + " ms")
        if differs { parts.append("≠ reference") }
        return parts.joined(separator: " · ")
    }
}
