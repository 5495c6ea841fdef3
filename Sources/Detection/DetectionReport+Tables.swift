import Support
import Foundation
import Corpus

/// The detection report as tables: one schema for CSV, Markdown and JSON.
extension DetectionReport {
    /// detection-summary.csv: one row per config × slice.
    package var summaryTable: ReportTable {
        var table = ReportTable(title: "Summary", columns: [
            .init("config"), .init("detector"), .init("slice"), .numeric("n"), .numeric("correct"), .numeric("accuracy"),
            .numeric("ci95_low"), .numeric("ci95_high"), .numeric("macro_f1"), .numeric("f1"),
        ])
        for slice in slices {
            let m = slice.metrics
            // A one-language slice has no false positives of its own, so its "macro-F1" would be 2R/(1+R):
            // its row shows the language's real F1 (precision over the whole config) instead.
            let language = SliceKey(slice.slice)?.language
            let f1 = language.flatMap { code in metrics(config: slice.config)?.perLanguage.first { $0.lang.identifier == code }?.f1 }
            table.append([.text(slice.config), .text(slice.detector), .text(slice.slice), .int(m.n), .int(m.correct),
                          .number(m.accuracy, digits: 4), .number(m.ci95.low, digits: 4), .number(m.ci95.high, digits: 4),
                          language == nil ? .number(m.macroF1, digits: 4) : .empty, f1.map { .number($0, digits: 4) } ?? .empty])
        }
        return table
    }

    /// The config comparison at a glance.
    package var configTable: ReportTable {
        var table = ReportTable(title: "Configs", columns: [
            .init("config"), .init("detector"), .init("candidates"), .init("hints"), .numeric("n"),
            .numeric("accuracy_pct", title: "accuracy %"), .init("ci95", title: "95% CI"), .numeric("macro_f1", title: "macro-F1"),
        ] + (confusionCosts == nil ? [] : [.numeric("confusion_cost", title: "cost-weighted error")]))
        for config in primaryConfigs {
            guard let m = metrics(config: config.name) else { continue }
            let candidates = config.resolvedCandidates.map { "\(config.candidates) (\($0.count))" } ?? "none"
            table.append([.text(config.name), .text(config.detector), .text(candidates), .text(config.hints), .int(m.n),
                          .percent(m.accuracy), .text(Self.percentInterval(m.ci95)), .number(m.macroF1, digits: 3)]
                         + (confusionCosts == nil ? [] : [confusionCost(config: config.name).map { .number($0, digits: 3) } ?? .empty]))
        }
        return table
    }

    package var comparisonTable: ReportTable {
        var table = ReportTable(title: "Paired comparisons (McNemar exact)", columns: [
            .init("base"), .init("other"), .numeric("n"), .numeric("fixed"), .numeric("broken"),
            .numeric("delta_pct", title: "Δ accuracy (points)"), .numeric("p_value", title: "p"), .init("reading"),
        ])
        let primary = Set(primaryConfigs.map(\.name))
        for c in comparisons where primary.contains(c.base) && primary.contains(c.other) {
            let delta = c.n > 0 ? Double(c.fixed - c.broken) / Double(c.n) : 0
            let reading = c.pValue < 0.05 ? (c.fixed > c.broken ? "better (significant)" : "worse (significant)") : "no significant difference"
            table.append([.text(c.base), .text(c.other), .int(c.n), .int(c.fixed), .int(c.broken), .percent(delta),
                          .text(Self.pValue(c.pValue)), .text(reading)])
        }
        return table
    }

    /// Per gold language: recall, precision and false-positive rate for every config.
    package var perLanguageTable: ReportTable { perLanguageTable(of: primaryConfigs) }

    /// Recall, precision and false-positive rate per language, a column group per config of `configs`.
    package func perLanguageTable(of configs: [ConfigEcho], title: String = "Per language (recall = the language's accuracy)") -> ReportTable {
        var columns: [ReportTable.Column] = [.init("lang"), .numeric("n")]
        for config in configs {
            columns += [.numeric("\(config.name)_recall", title: "\(config.name) R %"),
                        .numeric("\(config.name)_precision", title: "P %"), .numeric("\(config.name)_fpr", title: "FPR %")]
        }
        var table = ReportTable(title: title, columns: columns)
        guard let first = configs.first, let reference = metrics(config: first.name) else { return table }
        for language in reference.perLanguage {
            var row: [ReportCell] = [.text(language.lang.identifier), .int(language.support)]
            for config in configs {
                let entry = metrics(config: config.name)?.perLanguage.first { $0.lang == language.lang }
                row += entry.map { [.percent($0.recall), .percent($0.precision), .percent($0.falsePositiveRate)] } ?? [.empty, .empty, .empty]
            }
            table.append(row)
        }
        return table
    }

    /// Accuracy per config for slices with the given prefix (`length=`, `tag=`).
    package func sliceTable(_ kind: SliceKey.Kind, title: String) -> ReportTable {
        let names = Array(Set(slices.filter { SliceKey($0.slice)?.kind == kind }.map(\.slice)))
        let ordered = kind == .length ? LengthBucket.allCases.map { SliceKey.length($0.rawValue).description }.filter(names.contains) : names.sorted()
        let configs = primaryConfigs
        var table = ReportTable(title: title, columns: [.init("slice"), .numeric("n")] + configs.map { .numeric($0.name, title: "\($0.name) %") })
        for name in ordered {
            let n = slices.first { $0.slice == name }?.metrics.n ?? 0
            table.append([.text(SliceKey(name)?.value ?? name), .int(n)]
                         + configs.map { config in metrics(config: config.name, slice: name).map { .percent($0.accuracy) } ?? .empty })
        }
        return table
    }

    /// The corpora whose items carry a `corpus:<name>` tag (the outside corpus): each is sliced on its own.
    package var taggedCorpora: [String] {
        Array(Set(slices.compactMap { slice -> String? in
            guard case .corpusLang(let value)? = SliceKey(slice.slice) else { return nil }
            return value.split(separator: ":", maxSplits: 1).first.map(String.init)
        })).sorted()
    }

    /// Accuracy per config over one tagged corpus's items, by language or by length, with the shipped config's 95% interval.
    package func corpusTable(_ corpus: String, by kind: SliceKey.Kind, title: String) -> ReportTable {
        let prefix = SliceKey.within(corpus: corpus, kind, "").description
        let names = Set(slices.filter { $0.slice.hasPrefix(prefix) }.map(\.slice))
        let keys = kind == .length ? LengthBucket.allCases.map(\.rawValue).filter { names.contains(prefix + $0) }
            : names.map { String($0.dropFirst(prefix.count)) }.sorted()
        let configs = primaryConfigs, shipped = shippedConfig?.name
        var table = ReportTable(title: title, columns: [.init(kind == .length ? "length" : "lang"), .numeric("n")]
                                + configs.map { .numeric($0.name, title: "\($0.name) %") } + [.init("ci95", title: "95% CI")])
        for key in keys {
            let n = slices.first { $0.slice == prefix + key }?.metrics.n ?? 0
            let interval = shipped.flatMap { metrics(config: $0, slice: prefix + key) }.map { ReportCell.text(Self.percentInterval($0.ci95)) } ?? .empty
            table.append([.text(key), .int(n)] + configs.map { config in metrics(config: config.name, slice: prefix + key).map { .percent($0.accuracy) } ?? .empty }
                         + [interval])
        }
        return table
    }

    func confusionTable(_ matrix: ConfusionMatrix, title: String) -> ReportTable {
        var table = ReportTable(title: title, columns: [.init("gold")] + matrix.columns.map { .numeric($0) })
        for (row, counts) in zip(matrix.rows, matrix.counts) { table.append([.text(row)] + counts.map(ReportCell.int)) }
        return table
    }

    package var timingTable: ReportTable {
        var table = ReportTable(title: "Throughput (single thread, as measured in this run)", columns: [
            .init("config"), .init("detector"), .numeric("items"), .numeric("items_per_second", title: "items/s"), .numeric("load_ms", title: "load ms"),
        ])
        for t in timings {
            table.append([.text(t.config), .text(t.detector), .int(t.items), .number(t.itemsPerSecond, digits: 0), .number(t.loadMs, digits: 1)])
        }
        return table
    }

    /// p-values as people read them: four decimals, or scientific notation below 0.0001.
    package static func pValue(_ p: Double) -> String {
        p < 0.0001 ? String(format: "%.1e", p) : String(format: "%.4f", p)
    }

    package static func percentInterval(_ interval: Statistics.Interval) -> String {
        String(format: "%.1f–%.1f", interval.low * 100, interval.high * 100)
    }
}
