import Support
import Detection
import Foundation

/// The tables only generation.md shows.
extension GenerationReport {
    /// Direct and pivot side by side per language.
    package var sideBySideTable: ReportTable {
        var table = ReportTable(title: "Direct and pivot side by side", columns: [
            .init("slice"), .numeric("direct_n", title: "direct n"), .numeric("direct_p50", title: "direct p50 ms"),
            .init("direct_p50_ci", title: "95% CI"), .numeric("direct_fallback", title: "direct fallback %"),
            .numeric("pivot_n", title: "pivot n"), .numeric("pivot_p50", title: "pivot p50 ms"), .init("pivot_p50_ci", title: "95% CI"),
            .numeric("pivot_fallback", title: "pivot fallback %"), .init("ratio", title: "pivot/direct total (paired)"),
            .init("ratio_per_reply_token", title: "pivot/direct ms/reply token (paired)"),
        ])
        for slice in slices {
            func cells(_ row: SummaryRow?) -> [ReportCell] {
                guard let row else { return [.empty, .empty, .empty, .empty] }
                return [.int(row.n), row.latency.map { .number($0.p50, digits: 0) } ?? .empty, Self.interval(row.latency?.p50CI), .percent(row.fallbackRate)]
            }
            table.append([.text(slice)] + cells(summary(route: .direct, slice: slice)) + cells(summary(route: .pivot, slice: slice))
                         + [Self.ratioText(ratio(.total, slice: slice)), Self.ratioText(ratio(.msPerReplyToken, slice: slice))])
        }
        return table
    }

    /// End-to-end latency next to what it is made of: first token, per-token cost and reply length.
    package var latencyTable: ReportTable {
        var table = ReportTable(title: "Latency of model replies, end to end and per token", columns: [
            .init("route"), .numeric("n"), .numeric("mean", title: "mean ms"), .numeric("p50", title: "p50 ms"), .numeric("p95", title: "p95 ms"),
            .init("p95_ci", title: "p95 95% CI"), .numeric("ttft_p50", title: "TTFT p50 ms"), .numeric("tpot_p50", title: "TPOT p50 ms"),
            .numeric("tokens_p50", title: "tokens p50"), .numeric("ms_per_token_p50", title: "ms/generated token p50"),
            .numeric("ms_per_reply_token_p50", title: "ms/reply token p50"),
        ])
        for row in summary where row.slice == "all" {
            guard let l = row.latency else { continue }
            table.append([.text(row.route.rawValue), .int(l.n), .number(l.mean, digits: 0), .number(l.p50, digits: 0), .number(l.p95, digits: 0),
                          Self.interval(l.p95CI), Self.ms(row.ttft?.p50, digits: 0), Self.ms(row.tpot?.p50, digits: 1),
                          Self.ms(row.completionTokensP50, digits: 0), Self.ms(row.msPerToken?.p50, digits: 1),
                          Self.ms(row.msPerReplyToken?.p50, digits: 1)])
        }
        return table
    }

    /// Each request of each route, medians over model replies.
    package var stageTable: ReportTable {
        var table = ReportTable(title: "Per stage (medians over model replies)", columns: [
            .init("route"), .init("stage"), .numeric("n"), .numeric("ms"), .numeric("ttft", title: "TTFT ms"), .numeric("tpot", title: "TPOT ms"),
            .numeric("prompt_tokens", title: "prompt tokens"), .numeric("prompt_n", title: "evaluated (prompt_n)"),
            .numeric("completion_tokens", title: "completion tokens"),
        ])
        let model = referenceRecords.filter { $0.outcome == .model && $0.fallbackReason != .crisisProtocol }
        for route in Route.allCases {
            let own = model.filter { $0.route == route }
            for (name, path) in GenerationRecord.namedStages {
                let stages = own.compactMap { $0[keyPath: path] }
                guard !stages.isEmpty else { continue }
                func median(_ values: [Double]) -> ReportCell { values.isEmpty ? .empty : .number(Statistics.quantile(values, 0.5), digits: 1) }
                table.append([.text(route.rawValue), .text(name), .int(stages.count), median(stages.map(\.ms)), median(stages.compactMap(\.ttftMs)),
                              median(stages.compactMap(\.tpotMs)), median(stages.compactMap { $0.promptTokens.map(Double.init) }),
                              median(stages.compactMap { $0.promptProcessed.map(Double.init) }), median(stages.compactMap { $0.completionTokens.map(Double.init) })])
            }
        }
        return table
    }

    /// What the pivot/direct ratios cover: the items with a model reply on both routes, the English control
    /// outside `all`. One sentence under the tables that show them.
    package var ratioCoverage: String {
        guard let all = ratio(.total) else { return "" }
        let model = referenceRecords.filter { $0.outcome == .model && $0.fallbackReason != .crisisProtocol }
        let pivoted = Set(model.filter { $0.route == .pivot }.map(\.itemID))
        let both = Set(model.filter { $0.route == .direct && pivoted.contains($0.itemID) }.map(\.itemID))
        let items = Set(referenceRecords.filter { $0.fallbackReason != .crisisProtocol }.map(\.itemID))
        var text = "Pivot/direct ratios pair the \(both.count) of \(items.count) items with a model reply on both routes "
        text += "(\(items.count - both.count) fell back on one route or both and are left out); "
        text += "the `all` row's \(all.pairs) pairs leave out the English A/A control (`lang=\(ControlCheck.language)`), whose pivot is the direct route. "
        text += "Per reply token divides by the tokens of the reply the person reads; per generated token by every token generated, translations included.\n\n"
        return text
    }

    /// Pivot/direct on the same items: end to end, first token, and per token (length-controlled).
    package var ratioTable: ReportTable {
        var table = ReportTable(title: "Pivot/direct on the same items (median of paired ratios)", columns: [
            .init("slice"), .init("total", title: "total_ms"), .init("ttft", title: "ttft_ms"),
            .init("per_reply_token", title: "ms per reply token"), .init("per_token", title: "ms per generated token"),
        ])
        for slice in slices where ratio(.total, slice: slice) != nil {
            table.append([.text(slice), Self.ratioText(ratio(.total, slice: slice)), Self.ratioText(ratio(.ttft, slice: slice)),
                          Self.ratioText(ratio(.msPerReplyToken, slice: slice)), Self.ratioText(ratio(.msPerToken, slice: slice))])
        }
        return table
    }

    package var servedTable: ReportTable {
        var table = ReportTable(title: "Served in the person's own language (\(settings.detectionName))", columns: [
            .init("route"), .init("lang"), .init("detection"), .numeric("n"), .numeric("served"), .numeric("rate", title: "served %"),
            .init("ci", title: "95% CI"), .numeric("misdetected"), .numeric("wrong_output_language", title: "wrong output language"),
            .numeric("degenerate_output", title: "degenerate output"), .init("fallbacks", title: "other fallbacks"), .numeric("fidelity", title: "fidelity vs detected %"),
        ])
        for row in served {
            let others = row.fallbacks.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            table.append([.text(row.route.rawValue), .text(row.lang), .text(settings.detectionName), .int(row.n), .int(row.served), .percent(row.rate),
                          .text(DetectionReport.percentInterval(row.ci)), .int(row.misdetected), .int(row.wrongOutputLanguage), .int(row.degenerateOutput), .text(others),
                          row.fidelity.map(ReportCell.percent) ?? .empty])
        }
        return table
    }

    package var fallbackTable: ReportTable {
        var table = ReportTable(title: "Fallbacks by reason (crisis-flagged items excluded)", columns: [
            .init("route"), .init("reason"), .numeric("count"), .numeric("n"), .numeric("rate", title: "rate %"), .init("ci95", title: "95% CI"),
        ])
        for row in fallbacks {
            table.append([.text(row.route.rawValue), .text(row.reason.rawValue), .int(row.count), .int(row.n), .percent(row.rate),
                          .text(DetectionReport.percentInterval(row.ci))])
        }
        return table
    }
}
