/// The generation report as tables: one schema for CSV, Markdown and JSON.
extension GenerationReport {
    /// generation-items.csv: one row per item × route × repeat.
    public var itemsTable: ReportTable {
        var table = ReportTable(title: "Items", columns: [
            .init("item_id"), .init("lang"), .init("detected_lang"), .init("route"), .init("outcome"), .init("fallback_reason"),
            .numeric("total_ms"), .numeric("ttft_ms"), .numeric("detect_ms"), .numeric("translate_in_ms"), .numeric("generate_ms"),
            .numeric("translate_out_ms"), .numeric("prompt_tokens"), .numeric("completion_tokens"), .init("reply_lang"), .init("reply_lang_ok"),
            .numeric("repeat"), .numeric("translate_history_ms"), .init("history"), .numeric("generate_ttft_ms"),
            .numeric("generate_tokens_per_second"), .init("error_message"),
        ])
        func ms(_ value: Double?) -> ReportCell { value.map { .number($0, digits: 1) } ?? .empty }
        for r in records {
            table.append([.text(r.itemID), .text(r.lang.identifier), .text(r.detectedLang), .text(r.route.rawValue), .text(r.outcome.rawValue),
                          .optionalText(r.fallbackReason?.rawValue), ms(r.totalMs), ms(r.ttftMs), ms(r.detectMs), ms(r.translateInMs),
                          ms(r.generateMs), ms(r.translateOutMs), .int(r.promptTokens), .int(r.completionTokens), .optionalText(r.replyLang),
                          r.replyLangOK.map(ReportCell.bool) ?? .empty, .int(r.repeatIndex), ms(r.translateHistoryMs), .text(r.history.rawValue),
                          ms(r.generateTTFTMs), r.generateTokensPerSecond.map { .number($0, digits: 1) } ?? .empty, .optionalText(r.errorMessage)])
        }
        return table
    }

    /// generation-summary.csv: one row per route × slice.
    public var summaryTable: ReportTable {
        var table = ReportTable(title: "Summary", columns: [
            .init("route"), .init("slice"), .numeric("n"), .numeric("model_replies"), .numeric("mean_ms"), .numeric("p50_ms"),
            .numeric("p50_ci95_low"), .numeric("p50_ci95_high"), .numeric("p90_ms"), .numeric("p95_ms"), .numeric("p95_ci95_low"),
            .numeric("p95_ci95_high"), .numeric("p99_ms"), .numeric("max_ms"), .numeric("ttft_p50_ms"), .numeric("fallback_rate"),
            .numeric("fallback_ci95_low"), .numeric("fallback_ci95_high"), .numeric("fidelity"),
        ])
        func ms(_ value: Double?) -> ReportCell { value.map { .number($0, digits: 1) } ?? .empty }
        for row in summary {
            let l = row.latency
            table.append([.text(row.route.rawValue), .text(row.slice), .int(row.n), .int(row.modelReplies), ms(l?.mean), ms(l?.p50),
                          ms(l?.p50CI.low), ms(l?.p50CI.high), ms(l?.p90), ms(l?.p95), ms(l?.p95CI.low), ms(l?.p95CI.high), ms(l?.p99), ms(l?.max),
                          ms(row.ttft?.p50), .number(row.fallbackRate, digits: 4), .number(row.fallbackCI.low, digits: 4),
                          .number(row.fallbackCI.high, digits: 4), row.fidelity.map { .number($0, digits: 4) } ?? .empty])
        }
        return table
    }

    /// Direct and pivot side by side per language.
    var sideBySideTable: ReportTable {
        var table = ReportTable(title: "Direct and pivot side by side", columns: [
            .init("slice"), .numeric("direct_n", title: "direct n"), .numeric("direct_p50", title: "direct p50 ms"),
            .init("direct_p50_ci", title: "95% CI"), .numeric("direct_fallback", title: "direct fallback %"),
            .numeric("pivot_n", title: "pivot n"), .numeric("pivot_p50", title: "pivot p50 ms"), .init("pivot_p50_ci", title: "95% CI"),
            .numeric("pivot_fallback", title: "pivot fallback %"), .init("ratio", title: "pivot/direct (paired)"),
        ])
        let slices = Array(Set(summary.map(\.slice))).sorted { $0 == "all" ? true : ($1 == "all" ? false : $0 < $1) }
        for slice in slices {
            let d = self.summary(route: .direct, slice: slice), p = self.summary(route: .pivot, slice: slice)
            let ratio = ratios.first { $0.slice == slice }
            func cells(_ row: SummaryRow?) -> [ReportCell] {
                guard let row else { return [.empty, .empty, .empty, .empty] }
                return [.int(row.n), row.latency.map { .number($0.p50, digits: 0) } ?? .empty,
                        row.latency.map { .text(String(format: "%.0f–%.0f", $0.p50CI.low, $0.p50CI.high)) } ?? .empty, .percent(row.fallbackRate)]
            }
            table.append([.text(slice)] + cells(d) + cells(p)
                         + [ratio.map { .text(String(format: "%.2f× (%.2f–%.2f, %d pairs)", $0.medianRatio, $0.ci.low, $0.ci.high, $0.pairs)) } ?? .empty])
        }
        return table
    }

    var latencyTable: ReportTable {
        var table = ReportTable(title: "Latency of model replies (total_ms)", columns: [
            .init("route"), .init("slice"), .numeric("n"), .numeric("mean"), .numeric("p50"), .numeric("p90"), .numeric("p95"),
            .init("p95_ci", title: "p95 95% CI"), .numeric("p99"), .numeric("max"), .numeric("ttft_p50", title: "TTFT p50"),
        ])
        for row in summary where row.slice == "all" {
            guard let l = row.latency else { continue }
            table.append([.text(row.route.rawValue), .text(row.slice), .int(l.n), .number(l.mean, digits: 0), .number(l.p50, digits: 0),
                          .number(l.p90, digits: 0), .number(l.p95, digits: 0), .text(String(format: "%.0f–%.0f", l.p95CI.low, l.p95CI.high)),
                          .number(l.p99, digits: 0), .number(l.max, digits: 0), row.ttft.map { .number($0.p50, digits: 0) } ?? .empty])
        }
        return table
    }

    var fallbackTable: ReportTable {
        var table = ReportTable(title: "Fallbacks by reason", columns: [
            .init("route"), .init("reason"), .numeric("count"), .numeric("n"), .numeric("rate", title: "rate %"), .init("ci95", title: "95% CI"),
        ])
        for row in fallbacks {
            table.append([.text(row.route.rawValue), .text(row.reason.rawValue), .int(row.count), .int(row.n), .percent(row.rate),
                          .text(DetectionReport.percentInterval(row.ci))])
        }
        return table
    }

    var fidelityTable: ReportTable {
        var table = ReportTable(title: "Reply-language fidelity", columns: [.init("route"), .init("slice"), .numeric("fidelity", title: "fidelity %")])
        for row in summary { if let f = row.fidelity { table.append([.text(row.route.rawValue), .text(row.slice), .percent(f)]) } }
        return table
    }
}
