import Provenance
import Support
import Detection
import Foundation

/// The detection part of a run page: the same tables and charts as detection.md, charts first, then folded the
/// misdetected items and the items whose answer differs between configs, with their text and every config's answer.
enum DetectionItems {
    static let tableID = "detection-items"

    /// The differing-items table of the run in `directory`, streamed from its results log (none without a log).
    static func differing(_ report: DetectionReport, in directory: URL, texts: ItemTexts, crisis: Set<String>) throws -> DifferingItems {
        let store = try DetectionStore(report: report, directory: directory)
        let primary = report.primaryConfigs
        let candidates = primary.map(\.resolvedCandidates)
        guard let store else { return DifferingItems(configs: primary.map(\.name), candidates: candidates, texts: texts, crisis: crisis) }
        return try DifferingItems.of(store, configs: primary.map(\.name), candidates: candidates, texts: texts, crisis: crisis)
    }

    /// The page's third question: where detection loses people — inside and outside the candidate set, which languages
    /// are taken for which (the heatmap links into the misdetected items), per language, length and tag; the configs and
    /// their paired comparisons; the per-item lists folded.
    static func section(_ page: inout HTMLPage, report: DetectionReport, differing: DifferingItems) {
        // The page's script shows the shipped config's columns and lets a reader choose another (or all) and the config
        // the differing items are compared with; without script every config shows.
        let configs = report.primaryConfigs.map(\.name)
        page.openSection("detection", data: configs.count > 1
            ? ["configs": String(decoding: (try? JSONEncoder().encode(configs)) ?? Data("[]".utf8), as: UTF8.self),  // [String] always encodes
               "primary": report.shippedConfig?.name ?? configs[0]]
            : [:])
        page.heading("Where detection loses people")
        page.paragraph("\(report.items) items × \(report.configs.count) configs.")
        for partly in report.partlyFailedConfigs { page.paragraph("⚠ " + partly.sentence) }
        if let chart = report.candidateSetChart {
            page.chart(chart, label: "Accuracy inside the candidate set and over all items")
            page.table(report.candidateSetTable, id: "detection-candidate-set")
        }
        page.table(report.configTable, id: "detection-configs")
        if !report.comparisons.isEmpty { page.table(report.comparisonTable, id: "detection-comparisons") }
        // Each confused cell links to its items in the misdetected table (the page's script opens it and sets the filters from the link).
        if let chart = report.confusionChart(link: { config, lang, predicted in MisdetectedItems.link(config: config, lang: lang, predicted: predicted) }) {
            page.chart(chart, label: "Cyrillic confusion matrix")
        }
        page.table(report.perLanguageTable, id: "detection-languages", filters: ["lang"].filter { name in report.perLanguageTable.columns.contains { $0.name == name } })
        page.chart(report.lengthChart, label: "Detection accuracy by length, per config")
        page.table(report.sliceTable(.length, title: "Accuracy by length"), id: "detection-length")
        let tags = report.sliceTable(.tag, title: "Accuracy by tag")
        if !tags.rows.isEmpty { page.table(tags, id: "detection-tags") }
        for corpus in report.taggedCorpora {
            page.table(report.corpusTable(corpus, by: .lang, title: "The \(corpus) corpus per language"), id: "detection-corpus-\(corpus.filter { $0.isLetter || $0.isNumber })-lang", filters: ["lang"])
            page.table(report.corpusTable(corpus, by: .length, title: "The \(corpus) corpus by length"), id: "detection-corpus-\(corpus.filter { $0.isLetter || $0.isNumber })-length")
        }
        for slice in report.sharedTexts {
            page.paragraph(report.sharedTextSentence(slice))
            page.table(report.sharedTextTable(slice, title: "Texts the \(slice.name) corpus shares between languages: any of its languages"),
                       id: "detection-shared-\(slice.name.filter { $0.isLetter || $0.isNumber })")
        }
        if let chart = report.sweepChart {
            page.chart(chart, label: "Accuracy inside the candidate set, by set size")
            page.table(report.sweepTable, id: "detection-sweep")
        }
        page.table(report.timingTable, id: "detection-timing")
        let misdetected = differing.misdetected
        page.openFold("Misdetected items, one row per config and item (\(misdetected.rows))", id: "misdetected")
        page.paragraph("Every wrong answer, per config: filter by config, true language, answer, and whether the true language was a candidate "
                       + "(\"no\": wrong by construction, absorbed by the set).")
        if misdetected.hidden > 0 { page.paragraph("\(misdetected.hidden) wrong answer(s) on crisis-flagged items are counted here and never shown.") }
        page.table(misdetected.table, id: MisdetectedItems.tableID, filters: MisdetectedItems.filters, rowCap: misdetected.rowCap,
                   rowCount: misdetected.rows, overflowNote: DetectionOutput.itemsFile)
        page.closeFold()
        let table = differing.table
        page.openFold("Items whose answer differs between configs (\(differing.rows))", id: "detection-differing")
        if differing.hidden > 0 { page.paragraph("\(differing.hidden) crisis-flagged item(s) differ too; they are counted here and never shown.") }
        page.table(table, id: tableID, filters: ["lang", "length", "tags"] + table.columns.map(\.name).filter { $0.hasPrefix("flip:") },
                   rowCap: differing.rowCap, rowCount: differing.rows, overflowNote: DetectionOutput.itemsFile)
        page.closeFold()
        page.closeSection()
    }
}
