import Support
import Checks
import Detection
import Foundation
import Corpus

/// The variant × route matrix of a run with variants: tables, chart and the Markdown section.
extension GenerationReport {
    package static let variantChartFile = "generation-variants.svg"

    /// The reference variant's name (the first declared); nil in a run without variants.
    var referenceVariant: String? { settings.variants?.first?.name }

    /// The records the run's own tables describe: the reference variant's (all records without variants).
    var referenceRecords: [GenerationRecord] { records.filter { $0.variant == referenceVariant } }

    /// Per variant × route: served in own language, fallbacks, latency, first token and per-token cost.
    package var variantMatrixTable: ReportTable {
        var table = ReportTable(title: "Variant × route (every item through every variant, interleaved)", columns: [
            .init("variant"), .init("route"), .numeric("n"), .numeric("served", title: "served in own language %"), .init("served_ci", title: "95% CI"),
            .numeric("fallback", title: "fallback %"), .init("fallback_reasons", title: "fallbacks by reason"), .numeric("p50", title: "p50 ms"),
            .init("p50_ci", title: "95% CI"), .numeric("ttft_p50", title: "TTFT p50 ms"), .numeric("ms_per_token_p50", title: "ms/token p50"),
        ])
        for section in variants ?? [] {
            for row in section.summary where row.slice == "all" {
                let served = section.served.first { $0.route == row.route && $0.lang == "all" }
                let reasons = section.fallbacks.filter { $0.route == row.route }.map { "\($0.reason.rawValue) \($0.count)" }.joined(separator: ", ")
                table.append([.text(section.name), .text(row.route.rawValue), .int(row.n), .percent(row.servedRate),
                              served.map { .text(DetectionReport.percentInterval($0.ci)) } ?? .empty, .percent(row.fallbackRate), .text(reasons),
                              row.latency.map { .number($0.p50, digits: 0) } ?? .empty, Self.interval(row.latency?.p50CI),
                              Self.ms(row.ttft?.p50, digits: 0), Self.ms(row.msPerToken?.p50, digits: 1)])
            }
        }
        return table
    }

    /// Served in own language per language: one column per variant × route.
    var variantLanguageTable: ReportTable {
        let sections = variants ?? []
        let routes = Route.allCases.filter { route in sections.contains { $0.served.contains { $0.route == route } } }
        var columns: [ReportTable.Column] = [.init("lang")]
        let ran = { (section: VariantSection, route: Route) in section.served.contains { $0.route == route } }
        for section in sections { for route in routes where ran(section, route) { columns.append(.numeric("\(section.name)_\(route.rawValue)", title: "\(section.name) \(route.rawValue) %")) } }
        var table = ReportTable(title: "Served in own language by language", columns: columns)
        let langs = Set(sections.flatMap { $0.served.map(\.lang) }).sorted { $0 == "all" ? true : ($1 == "all" ? false : $0 < $1) }
        for lang in langs {
            var row: [ReportCell] = [.text(lang)]
            for section in sections {
                for route in routes where ran(section, route) {
                    row.append(section.served.first { $0.route == route && $0.lang == lang }.map { .percent($0.rate) } ?? .empty)
                }
            }
            table.append(row)
        }
        return table
    }

    /// Each variant against the reference on the same records (Holm within each metric of a variant).
    var variantChecksTable: ReportTable {
        var table = ReportTable(title: "Against the reference \(referenceVariant ?? "") on the same items", columns: [
            .init("variant"), .init("key"), .init("metric"), .numeric("reference"), .numeric("variant_value", title: "variant"),
            .init("change"), .init("ci", title: "95% CI"), .numeric("p_holm", title: "p (Holm)"), .init("verdict"), .init("flips"),
        ])
        for section in variants ?? [] {
            for check in section.versusReference where check.metric != MetricName.tpot {
                let latency = [.latency, .latencyTail, .tokenCost].contains(check.kind)
                let value: (Double) -> ReportCell = { latency ? .number($0, digits: 0) : .percent($0) }
                let change = latency ? String(format: "×%.2f", check.delta + 1) : String(format: "%+.1f points", check.delta * 100)
                let route = check.key[.route] ?? ""
                let flips = check.metric == MetricName.served && check.key[.lang] == nil
                    ? "gained \(section.gained[route] ?? 0), lost \(section.lost[route] ?? 0)" : ""
                table.append([.text(section.name), .text(check.key.description), .text(check.metric), value(check.base), value(check.current), .text(change),
                              check.interval.map { .text(check.metric == MetricName.translateInChrF ? String(format: "%+.1f to %+.1f points", $0.low * 100, $0.high * 100)
                                                         : String(format: "%.2f–%.2f", $0.low, $0.high)) } ?? .empty,
                              check.adjustedP.map { .number($0, digits: 4) } ?? .empty, .text(Self.verdict(check)), .text(flips)])
            }
        }
        return table
    }

    /// `better`, `worse` or `no clear difference`, from the check's Holm-adjusted one-sided tests.
    static func verdict(_ check: MetricCheck) -> String {
        switch check.status {
        case .regression: "worse"
        case .improvement: "better"
        case .unchanged: "no clear difference"
        }
    }

    /// generation.md's section for a run with variants (empty without).
    var variantsMarkdown: String {
        guard let variants, !variants.isEmpty else { return "" }
        var out = "## Variants\n\n"
        let pivotOnly = pivotOnlyVariants
        out += "\(variants.count) variants; every item went through every variant and route, back to back, in a counterbalanced order "
        out += "(variant order rotated and reversed per item within each language, route order per item). The reference is the first, "
        out += "\(ReportText.code(variants[0].name)); the sections after this one describe it alone."
        if !pivotOnly.isEmpty {
            out += " " + pivotOnly.map(ReportText.code).joined(separator: ", ") + " changed only the pivot's translator, so ran the pivot alone, "
                + "with the reference detection config, for messages not detected as English: their other records would repeat the reference's requests."
        }
        out += "\n\n"
        for (index, variant) in (settings.variants ?? []).enumerated() {
            out += "- \(ReportText.code(variant.name))\(index == 0 ? " (reference)" : ""): \(variant.description.isEmpty ? "no description" : ReportText.markdown(variant.description)) "
            out += "— model \(ReportText.code(variant.model)), server \(variant.server), profile fingerprint \(ReportText.code(String(variant.fingerprint.prefix(12))))\n"
        }
        out += "\n" + MarkdownWriter.render(variantMatrixTable) + "\n"
        out += "![Served in own language by variant and route](\(Self.variantChartFile))\n\n"
        out += MarkdownWriter.render(variantLanguageTable) + "\n"
        if let stages = variantStageTable { out += MarkdownWriter.render(stages) + "\n" + Self.variantStageLegend + "\n\n" }
        if variants.count > 1 {
            out += "Paired on the same item × route × repeat: McNemar's exact test on served-in-own-language and on each fallback reason "
            out += "(a change of more than 2 points), bootstrap over items of the per-item latency ratio (beyond ×1.10); Holm within each metric, and within the per-language served rows (rows with too few discordant records to reach significance are shown, not counted: Tarone). "
            out += "The records that flipped are marked in `generation-items.csv` (`served_vs_reference`).\n\n"
            out += MarkdownWriter.render(variantChecksTable) + "\n"
        }
        return out
    }

    /// The pivot's stages per engine, per language, on the messages the pivot of the reference and of every variant that
    /// changed only the translator ran to the end (translated the reply back, whatever the language check then said): the
    /// engines side by side on the same messages, stage by stage (medians). Nil without such a variant.
    package var variantStageTable: ReportTable? {
        let pivotOnly = pivotOnlyVariants
        guard !pivotOnly.isEmpty, let reference = settings.variants?.first?.name else { return nil }
        let names = [reference] + pivotOnly
        let model = records.filter { $0.route == .pivot && $0.translateOut != nil && $0.fallbackReason != .crisisProtocol }
        let byVariant = Dictionary(grouping: model) { $0.variant ?? "" }
        let answered = names.map { Set((byVariant[$0] ?? []).map(\.itemID)) }
        let common = answered.dropFirst().reduce(answered[0]) { $0.intersection($1) }
        var table = ReportTable(title: "The pivot's stages per engine, on the messages every engine's pivot translated back (medians)", columns: [
            .init("lang"), .init("variant"), .init("stage"), .numeric("n"), .numeric("ms"), .numeric("ttft", title: "TTFT ms"),
        ])
        func median(_ values: [Double]) -> ReportCell { values.isEmpty ? .empty : .number(Statistics.quantile(values, 0.5), digits: 1) }
        for lang in Set(model.filter { common.contains($0.itemID) }.map(\.lang.identifier)).sorted() {
            for name in names {
                let own = (byVariant[name] ?? []).filter { common.contains($0.itemID) && $0.lang.identifier == lang }
                for (stage, path) in GenerationRecord.namedStages {
                    let stages = own.compactMap { $0[keyPath: path] }
                    guard !stages.isEmpty else { continue }
                    table.append([.text(lang), .text(name), .text(stage), .int(stages.count), median(stages.map(\.ms)), median(stages.compactMap(\.ttftMs))])
                }
            }
        }
        return table.rows.isEmpty ? nil : table
    }

    package static let variantStageLegend = "A translation engine's request does not stream: its TTFT is the whole request. The generate stage "
        + "is the same model on both engines; it differs only by the English text each engine handed it."

    /// Served in own language, variants side by side per route.
    package var variantChart: String {
        let sections = variants ?? []
        let routes = Route.allCases.filter { route in sections.contains { $0.served.contains { $0.route == route } } }
        let groups = sections.map { section in
            SVGBarChart.Group(label: section.name, values: routes.map { route in
                section.served.first { $0.route == route && $0.lang == "all" }.map { $0.rate * 100 }
            })
        }
        return SVGBarChart(title: "Served in own language by variant and route (%)", unit: "%", series: routes.map(\.rawValue), groups: groups,
                           maximum: 100).render()
    }

    /// `gained` / `lost` for a record of a non-reference variant whose served-in-own-language differs from the reference's.
    func servedVersusReference() -> (String) -> String {
        guard let reference = referenceVariant else { return { _ in "" } }
        let strip = { (record: GenerationRecord) in GenerationRecord.key(item: record.itemID, route: record.route, repeatIndex: record.repeatIndex) }
        let before = Dictionary(records.filter { $0.variant == reference }.map { (strip($0), $0.servedInOwnLanguage == true) }, uniquingKeysWith: { a, _ in a })
        var flips: [String: String] = [:]
        for record in records where record.variant != reference && record.fallbackReason != .crisisProtocol {
            guard let was = before[strip(record)] else { continue }
            let now = record.servedInOwnLanguage == true
            if now != was { flips[record.key] = now ? "gained" : "lost" }
        }
        return { flips[$0] ?? "" }
    }
}
