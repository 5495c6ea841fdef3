import Support
import Foundation
import Generation
import Provenance

/// The generation parts of a run page — who is served, what it costs — with the same tables and charts as
/// generation.md, and every item's message and each route × variant reply side by side, folded.
enum GenerationItems {
    static let tableID = "generation-items"

    static func replies(in directory: URL) throws -> [String: String] {
        var out: [String: String] = [:]
        for reply in try GenerationStore.replies(in: directory) {
            out[reply.key] = reply.reply
        }
        return out
    }

    /// The page's first question: who each route serves in their own language, per language — the chart, the route the
    /// runtime picks and where the other does better, the served counts, how good the pivot's translation is, where the
    /// people not served were lost (each one listed in a folded table) and why replies fell back.
    static func served(_ page: inout HTMLPage, report: GenerationReport, texts: ItemTexts) {
        page.openSection("served")
        page.heading("Who is served in their own language")
        page.chart(report.servedChart, label: "Served in their own language by language and route")
        page.table(report.routeDecisionTable, id: "generation-route-decision")
        page.paragraph(RouteDecision.legend(pivotVia: !report.pivotOnlyVariants.isEmpty))
        page.table(report.servedTable, id: "generation-served", filters: ["route", "lang"])
        if let judges = report.judges {
            page.table(judges.table, id: "generation-judges", filters: ["route", "lang"])
        } else {
            page.paragraph(JudgeAgreement.oneJudge(report.settings.judge))
        }
        if let quality = report.translationQualityTable {
            page.table(quality, id: "generation-translation-quality")
            page.paragraph(TranslationQuality.legend(lostBelow: report.settings.lostBelowChrF))
        }
        if let funnel = report.funnel {
            page.table(funnel.table, id: "generation-funnel", filters: ["route", "config", "lang"], links: LostItems.funnelLinks(funnel))
            page.paragraph(funnel.sharingSentence + " Each lost count links to its people below.")
        }
        page.chart(report.fallbackChart, label: "Fallbacks by reason")
        page.table(report.fallbackTable, id: "generation-fallbacks")
        if report.funnel != nil {
            let lost = LostItems.table(report, texts: texts)
            page.openFold("People not served, one row each (\(lost.rows.count))", id: "generation-lost-list")
            page.table(lost, id: LostItems.tableID, filters: LostItems.filters, overflowNote: GenerationOutput.recordsLog)
            page.closeFold()
        }
        page.closeSection()
    }

    /// The page's second question: what each route costs — latency (with its stages and per-token figures), the pivot
    /// against the direct route on the same people, tokens, the variants side by side, and how the timing was designed.
    static func cost(_ page: inout HTMLPage, report: GenerationReport) {
        page.openSection("cost")
        page.heading("What it costs")
        page.chart(report.latencyChart, label: "Latency by route")
        page.table(report.latencyTable, id: "generation-latency")
        page.table(report.stageTable, id: "generation-stages")
        if !report.ratioTable.rows.isEmpty { page.table(report.ratioTable, id: "generation-ratios") }
        page.table(report.sideBySideTable, id: "generation-side-by-side")
        if report.variants != nil {
            page.chart(report.variantChart, label: "Variants by route")
            page.table(report.variantMatrixTable, id: "generation-variants")
            if let stages = report.variantStageTable {
                page.table(stages, id: "generation-engine-stages")
                page.paragraph(GenerationReport.variantStageLegend)
            }
        }
        page.paragraph("Timing design: " + report.timingDesign)
        if let control = report.control { page.paragraph(control.sentence, strong: true) }
        if let check = report.calibrationConsistency, !check.isConsistent { page.paragraph("⚠ " + check.sentence, strong: true) }
        page.closeSection()
    }

    /// Every item's message and each route × variant reply side by side, folded.
    static func itemList(_ page: inout HTMLPage, report: GenerationReport, replies: [String: String], texts: ItemTexts, crisis: Set<String>) {
        let table = GenerationSideBySide(report, crisis: crisis)
        page.openFold("Every item: its message and each route × variant reply (\(table.rows.count))", id: "generation-item-list")
        if table.hiddenCrisisItems > 0 {
            page.paragraph("\(table.hiddenCrisisItems) crisis-flagged item(s) are counted here and never shown, nor their replies.")
        }
        if let reference = table.reference {
            page.paragraph("\"differs from reference variant\": outcome, fallback reason or served in own language differs from \(reference)'s on the same route.")
        }
        page.markup(table.html(id: tableID, title: "Items: message and reply per route and variant", texts: texts, replies: replies,
                               overflowNote: GenerationOutput.itemsFile))
        page.closeFold()
    }
}
