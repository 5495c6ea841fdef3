import Foundation

/// The generation part of a run page: the same tables and charts as generation.md, then every item's
/// message and each route × variant reply side by side with its outcome and timing.
enum GenerationItems {
    static let tableID = "generation-items"
    /// The generation-items.csv columns the drill-down shows, around the message and reply.
    static let columns = ["item_id", "lang", "variant", "route", "repeat", "outcome", "fallback_reason", "served_in_own_language",
                          "not_served_reason", "reply_lang", "reply_lang_ok", "ttft_ms", "total_ms", "served_vs_reference"]

    static func replies(in directory: URL) throws -> [String: String] {
        let url = directory.appendingPathComponent(GenerationOutput.repliesFile)
        guard FileManager.default.fileExists(atPath: url.path) else { return [:] }
        var out: [String: String] = [:]
        for reply in try JSONLinesLog<ReplyRecord>.read(url) {
            out[GenerationRecord.key(item: reply.itemID, route: reply.route, repeatIndex: reply.repeatIndex, variant: reply.variant)] = reply.reply
        }
        return out
    }

    static func section(_ page: inout HTMLPage, report: GenerationReport, replies: [String: String], texts: ItemTexts, crisis: Set<String>) {
        page.openSection("generation")
        page.heading("Generation: direct vs pivot")
        page.paragraph("Timing design: " + report.timingDesign)
        if let control = report.control { page.paragraph(control.sentence, strong: true) }
        if let check = report.calibrationConsistency, !check.isConsistent { page.paragraph("⚠ " + check.sentence, strong: true) }
        if report.variants != nil {
            page.table(report.variantMatrixTable, id: "generation-variants")
            page.chart(report.variantChart, label: "Variants by route")
        }
        page.table(report.sideBySideTable, id: "generation-side-by-side")
        page.chart(report.latencyChart, label: "Latency by route")
        page.table(report.latencyTable, id: "generation-latency")
        page.table(report.stageTable, id: "generation-stages")
        if !report.ratioTable.rows.isEmpty { page.table(report.ratioTable, id: "generation-ratios") }
        page.table(report.servedTable, id: "generation-served", filters: ["route", "lang"])
        page.chart(report.fallbackChart, label: "Fallbacks by reason")
        page.table(report.fallbackTable, id: "generation-fallbacks")
        let (table, keys) = items(report, replies: replies, texts: texts, crisis: crisis)
        page.heading("Every item, route and variant", level: 3, id: "generation-item-list")
        let hidden = report.records.count - table.rows.count
        if hidden > 0 { page.paragraph("\(hidden) crisis-flagged record(s) got the fixed safe reply; they are counted here and never shown.") }
        page.table(table, id: tableID, filters: ["lang", "route", "variant", "outcome", "served_in_own_language", "served_vs_reference"]
                   .filter { name in table.columns.contains { $0.name == name } },
                   rowIDs: keys.map(rowID), overflowNote: GenerationOutput.itemsFile)
        page.closeSection()
    }

    /// The anchor of one record's row (compare pages link to theirs the same way).
    static func rowID(_ key: String) -> String { "r-" + key.replacingOccurrences(of: "\u{1F}", with: "-") }

    /// generation-items.csv's rows, crisis-flagged records left out, with the message and the reply.
    static func items(_ report: GenerationReport, replies: [String: String], texts: ItemTexts, crisis: Set<String>) -> (ReportTable, keys: [String]) {
        let full = report.itemsTable
        let indices = columns.compactMap { name in full.columns.firstIndex { $0.name == name } }
        var table = ReportTable(title: "Items: message and reply per route and variant",
                                columns: [.init("item_id"), .init("message")] + indices.dropFirst().map { full.columns[$0] } + [.init("reply")])
        var keys: [String] = []
        let order = report.records.indices.sorted { a, b in
            let x = report.records[a], y = report.records[b]
            return (x.itemID, x.variant ?? "", x.route.rawValue, x.repeatIndex) < (y.itemID, y.variant ?? "", y.route.rawValue, y.repeatIndex)
        }
        for index in order {
            let record = report.records[index]
            guard record.fallbackReason != .crisisProtocol, !crisis.contains(record.itemID) else { continue }
            let row = full.rows[index]
            table.append([row[indices[0]], .optionalText(texts.text(record.itemID))] + indices.dropFirst().map { row[$0] } + [.optionalText(replies[record.key])])
            keys.append(record.key)
        }
        return (table, keys)
    }
}
