import Support
import Foundation
import Generation
import Corpus

/// The run page's list of the people each detection config did not serve: one row per record of the served funnel
/// (`ServedFunnel`: the reference variant, every config) that stopped before "served" — the config, route, item, true
/// and detected language, the stage it was lost at, the recorded reason, the message. The funnel's stage counts link
/// here, filtered to their config, route, language and stage. Crisis-flagged records are never listed (the funnel
/// leaves them out too).
enum LostItems {
    static let tableID = "generation-lost"
    static let filters = ["config", "route", "lang", "stage"]

    /// A link to this table filtered to one funnel cell (`lang` `all`: every language).
    static func link(config: String, route: String, lang: String, stage: ServedFunnel.Stage) -> String {
        func encoded(_ value: String) -> String { value.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-_."))) ?? value }
        let language = lang == "all" ? "" : "&lang=\(encoded(lang))"
        return "#\(tableID)?config=\(encoded(config))&route=\(encoded(route))\(language)&stage=\(encoded(stage.rawValue))"
    }

    /// The lost records of `report`'s funnel, in the funnel's config order, then canonical record order.
    static func table(_ report: GenerationReport, texts: ItemTexts) -> ReportTable {
        var table = ReportTable(title: "People not served, per detection config, with the stage they were lost at", columns: [
            .init("config"), .init("route"), .init("item_id"), .init("lang", title: "true"), .init("detected"), .init("stage"),
            .init("reason"), .init("text"),
        ])
        guard let funnel = report.funnel else { return table }
        let variant = report.settings.variants?.first?.name
        let lost = report.allRecords.filter { $0.variant == variant && $0.fallbackReason != .crisisProtocol && ServedFunnel.Stage.of($0, lostBelow: report.settings.lostBelowChrF) != .served }
        let configs = funnel.configs
        for config in configs {
            for record in lost where (record.config ?? configs[0]) == config {
                table.append([.text(config), .text(record.route.rawValue), .text(record.itemID), .text(record.lang.identifier), .text(record.detectedLang),
                              .text(ServedFunnel.Stage.of(record, lostBelow: report.settings.lostBelowChrF).rawValue), .optionalText(record.notServedReason), .optionalText(texts.text(record.itemID))])
            }
        }
        return table
    }

    /// Per row of the funnel's table, a link from each lost stage's count (when not zero) to its records.
    static func funnelLinks(_ funnel: ServedFunnel) -> [[String?]] {
        let columns = funnel.table.columns.map(\.name)
        return funnel.rows.map { row in
            var links = [String?](repeating: nil, count: columns.count)
            for stage in ServedFunnel.Stage.allCases where stage != .served && (row.stages[stage] ?? 0) > 0 {
                guard let column = columns.firstIndex(of: stage.rawValue) else { continue }
                links[column] = link(config: row.config, route: row.route.rawValue, lang: row.lang, stage: stage)
            }
            return links
        }
    }
}
