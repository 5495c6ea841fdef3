import BenchSupport
import Detection
import Foundation
import Generation

/// The detection part of a run page: the same tables and charts as detection.md, then the items whose
/// answer differs between configs, with their text and every config's answer and score.
enum DetectionItems {
    static let tableID = "detection-items"

    static func results(of report: DetectionReport, in directory: URL) throws -> [DetectionResult] {
        let log = directory.appendingPathComponent(report.files["results_log"] ?? DetectionOutput.resultsLog)
        guard FileManager.default.fileExists(atPath: log.path) else { return [] }
        return DetectionResult.ordered(try DetectionResultLog.read(log).results, configs: report.configs.map(\.name))
    }

    static func section(_ page: inout HTMLPage, report: DetectionReport, results: [DetectionResult], texts: ItemTexts, crisis: Set<String>) {
        page.openSection("detection")
        page.heading("Detection")
        page.paragraph("\(report.items) items × \(report.configs.count) configs.")
        for failed in report.failedConfigs { page.paragraph("⚠ " + failed.markdownSentence, strong: true) }
        for partly in report.partlyFailedConfigs { page.paragraph("⚠ " + partly.markdownSentence) }
        page.table(report.configTable, id: "detection-configs")
        if !report.comparisons.isEmpty { page.table(report.comparisonTable, id: "detection-comparisons") }
        page.chart(report.lengthChart, label: "Detection accuracy by length, per config")
        page.table(report.sliceTable(prefix: "length=", title: "Accuracy by length"), id: "detection-length")
        page.table(report.perLanguageTable, id: "detection-languages", filters: ["lang"].filter { name in report.perLanguageTable.columns.contains { $0.name == name } })
        if let chart = report.confusionChart { page.chart(chart, label: "Cyrillic confusion matrix") }
        let tags = report.sliceTable(prefix: "tag=", title: "Accuracy by tag")
        if !tags.rows.isEmpty { page.table(tags, id: "detection-tags") }
        page.table(report.timingTable, id: "detection-timing")
        let (table, hidden) = differing(results, configs: report.configs.map(\.name), texts: texts, crisis: crisis)
        page.heading("Items whose answer differs between configs", level: 3, id: "detection-differing")
        if hidden > 0 { page.paragraph("\(hidden) crisis-flagged item(s) differ too; they are counted here and never shown.") }
        page.table(table, id: tableID, filters: ["lang", "length", "tags"] + table.columns.map(\.name).filter { $0.hasPrefix("flip:") },
                   overflowNote: DetectionOutput.itemsFile)
        page.closeSection()
    }

    /// One row per item whose configs do not all give the same answer; `flip:<config>` is `fixed` or
    /// `broken` against the first config, as in detection-items.csv.
    static func differing(_ results: [DetectionResult], configs: [String], texts: ItemTexts, crisis: Set<String>) -> (ReportTable, hiddenCrisis: Int) {
        var columns: [ReportTable.Column] = [.init("item_id"), .init("lang"), .init("length"), .init("tags"), .init("text")]
        for config in configs {
            columns += [.init("answer:\(config)", title: "\(config) answer"), .init("correct:\(config)", title: "\(config) correct"),
                        .numeric("confidence:\(config)", title: "\(config) confidence")]
        }
        columns += configs.dropFirst().map { .init("flip:\($0)", title: "\($0) vs \(configs[0])") }
        var table = ReportTable(title: "Items whose answer differs between configs", columns: columns)
        var byItem: [String: [String: DetectionResult]] = [:], order: [String] = []
        for result in results {
            if byItem[result.itemID] == nil { order.append(result.itemID) }
            byItem[result.itemID, default: [:]][result.config] = result
        }
        var hidden = 0
        for id in order.sorted() {
            guard let answers = byItem[id], Set(answers.values.map(\.predictedLabel)).count > 1, let first = answers.values.first else { continue }
            if crisis.contains(id) { hidden += 1; continue }
            var row: [ReportCell] = [.text(id), .text(first.lang.identifier), .text(first.length.rawValue), .text(first.tags.joined(separator: ";")),
                                     .optionalText(texts.text(id))]
            for config in configs {
                let r = answers[config]
                row += [.optionalText(r?.predictedLabel), r.map { .bool($0.correct) } ?? .empty, r?.confidence.map { .number($0, digits: 4) } ?? .empty]
            }
            let base = answers[configs[0]]?.correct
            for config in configs.dropFirst() {
                guard let base, let now = answers[config]?.correct, now != base else { row.append(.empty); continue }
                row.append(.text(now ? "fixed" : "broken"))
            }
            table.append(row)
        }
        return (table, hidden)
    }
}
