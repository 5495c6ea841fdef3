import BenchSupport
import Foundation
import Generation
import RunProvenance

/// The generation part of a run page: the same tables and charts as generation.md, then every item's
/// message and each route × variant reply side by side with its outcome and timing.
enum GenerationItems {
    static let tableID = "generation-items"

    static func replies(in directory: URL) throws -> [String: String] {
        var out: [String: String] = [:]
        for reply in try GenerationStore.replies(in: directory) {
            out[reply.key] = reply.reply
        }
        return out
    }

    static func section(_ page: inout HTMLPage, report: GenerationReport, replies: [String: String], texts: ItemTexts, crisis: Set<String>) {
        page.openSection("generation")
        page.heading("Generation: direct vs pivot")
        page.table(report.routeDecisionTable, id: "generation-route-decision")
        page.paragraph(RouteDecision.legend(pivotVia: !report.pivotOnlyVariants.isEmpty))
        if let quality = report.translationQualityTable {
            page.table(quality, id: "generation-translation-quality")
            page.paragraph(TranslationQuality.legend(lostBelow: report.settings.lostBelowChrF))
        }
        page.paragraph("Timing design: " + report.timingDesign)
        if let control = report.control { page.paragraph(control.sentence, strong: true) }
        if let check = report.calibrationConsistency, !check.isConsistent { page.paragraph("⚠ " + check.sentence, strong: true) }
        if report.variants != nil {
            page.table(report.variantMatrixTable, id: "generation-variants")
            if let stages = report.variantStageTable {
                page.table(stages, id: "generation-engine-stages")
                page.paragraph(GenerationReport.variantStageLegend)
            }
            page.chart(report.variantChart, label: "Variants by route")
        }
        page.table(report.sideBySideTable, id: "generation-side-by-side")
        page.chart(report.latencyChart, label: "Latency by route")
        page.table(report.latencyTable, id: "generation-latency")
        page.table(report.stageTable, id: "generation-stages")
        if !report.ratioTable.rows.isEmpty { page.table(report.ratioTable, id: "generation-ratios") }
        page.table(report.servedTable, id: "generation-served", filters: ["route", "lang"])
        if let judges = report.judges {
            page.table(judges.table, id: "generation-judges", filters: ["route", "lang"])
        } else {
            page.paragraph(JudgeAgreement.oneJudge(report.settings.judge))
        }
        if let funnel = report.funnel {
            page.table(funnel.table, id: "generation-funnel", filters: ["route", "config", "lang"], links: LostItems.funnelLinks(funnel))
            page.paragraph(funnel.sharingSentence + " Each lost count links to its people below.")
        }
        page.chart(report.fallbackChart, label: "Fallbacks by reason")
        page.table(report.fallbackTable, id: "generation-fallbacks")
        if report.funnel != nil {
            page.table(LostItems.table(report, texts: texts), id: LostItems.tableID, filters: LostItems.filters, overflowNote: GenerationOutput.recordsLog)
        }
        let table = GenerationSideBySide(report, crisis: crisis)
        page.heading("Every item: its message and each route × variant reply", level: 3, id: "generation-item-list")
        if table.hiddenCrisisItems > 0 {
            page.paragraph("\(table.hiddenCrisisItems) crisis-flagged item(s) are counted here and never shown, nor their replies.")
        }
        if let reference = table.reference {
            page.paragraph("\"differs from reference variant\": outcome, fallback reason or served in own language differs from \(reference)'s on the same route.")
        }
        page.markup(table.html(id: tableID, title: "Items: message and reply per route and variant", texts: texts, replies: replies,
                               overflowNote: GenerationOutput.itemsFile))
        page.closeSection()
    }
}
