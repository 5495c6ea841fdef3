import Support
import Foundation
import Corpus

/// The generation report as tables: one schema for CSV, Markdown and JSON.
extension GenerationReport {
    static let stageColumns = ["ms", "ttft_ms", "tpot_ms", "prompt_tokens", "prompt_n", "completion_tokens"]

    /// generation-items.csv: one row per item × route × repeat.
    package var itemsTable: ReportTable {
        var columns: [ReportTable.Column] = [
            .init("item_id"), .init("variant"), .init("lang"), .init("detected_lang"), .init("route"), .numeric("repeat"), .init("route_order"),
            .init("cache_policy"), .init("outcome"), .init("fallback_reason"), .init("served_in_own_language"), .init("not_served_reason"),
            .numeric("total_ms"), .numeric("ttft_ms"), .numeric("tpot_ms"), .numeric("ms_per_token"), .numeric("detect_ms"),
        ]
        for stage in ["translate_in", "generate", "translate_out"] {
            columns += Self.stageColumns.map { .numeric("\(stage)_\($0)") }
        }
        columns += [.numeric("translate_history_ms"), .init("history"), .numeric("prompt_tokens"), .numeric("completion_tokens"),
                    .numeric("generate_tokens_per_second"), .init("reply_lang"), .init("reply_lang_ok"), .init("error_message"),
                    .init("served_vs_reference")]
        // A pooled run names each record's server; a one-server run keeps its columns as they were.
        let pooled = records.contains { $0.server != nil }
        if pooled { columns += [.init("server"), .init("reassigned_from")] }
        // Likewise the columns of what a server did wrong, only when one did.
        let corrected = ignoredStop != nil || secretsRedacted != nil || invalidCounts != nil
        if corrected { columns += [.init("ignored_stop"), .init("secret_redacted"), .init("invalid_counts")] }
        var table = ReportTable(title: "Items", columns: columns)
        let flip = servedVersusReference()
        for r in records {
            var row: [ReportCell] = [.text(r.itemID), .optionalText(r.variant), .text(r.lang.identifier), .text(r.detectedLang), .text(r.route.rawValue), .int(r.repeatIndex),
                                     .text(r.routeOrder.rawValue), .text(r.cachePolicy.rawValue), .text(r.outcome.rawValue),
                                     .optionalText(r.fallbackReason?.rawValue), r.servedInOwnLanguage.map(ReportCell.bool) ?? .empty,
                                     .optionalText(r.notServedReason), Self.ms(r.totalMs), Self.ms(r.ttftMs), Self.ms(r.tpotMs, digits: 2),
                                     Self.ms(r.msPerToken, digits: 2), Self.ms(r.detectMs)]
            for stage in [r.translateIn, r.generate, r.translateOut] {
                row += stage.map { [Self.ms($0.ms), Self.ms($0.ttftMs), Self.ms($0.tpotMs, digits: 2), .optionalInt($0.promptTokens),
                                    .optionalInt($0.promptProcessed), .optionalInt($0.completionTokens)] } ?? Array(repeating: .empty, count: Self.stageColumns.count)
            }
            row += [Self.ms(r.translateHistoryMs), .text(r.history.rawValue), .optionalInt(r.promptTokens), .optionalInt(r.completionTokens),
                    Self.ms(r.generateTokensPerSecond), .optionalText(r.replyLang), r.replyLangOK.map(ReportCell.bool) ?? .empty,
                    .optionalText(r.errorMessage), .optionalText(flip(r.key).isEmpty ? nil : flip(r.key))]
            if pooled { row += [.optionalText(r.server), .optionalText(r.reassignedFrom)] }
            if corrected { row += [r.ignoredStop, r.secretRedacted, r.invalidCounts].map { $0.map(ReportCell.bool) ?? .empty } }
            table.append(row)
        }
        return table
    }

    /// generation-summary.csv: one row per route × slice (per variant × route × slice in a run with variants).
    package var summaryTable: ReportTable {
        var table = ReportTable(title: "Summary", columns: [
            .init("variant"), .init("route"), .init("slice"), .numeric("n"), .numeric("model_replies"), .numeric("mean_ms"), .numeric("p50_ms"),
            .numeric("p50_ci95_low"), .numeric("p50_ci95_high"), .numeric("p90_ms"), .numeric("p95_ms"), .numeric("p95_ci95_low"),
            .numeric("p95_ci95_high"), .numeric("p99_ms"), .numeric("max_ms"), .numeric("ttft_p50_ms"), .numeric("tpot_p50_ms"),
            .numeric("ms_per_token_p50"), .numeric("ms_per_reply_token_p50"), .numeric("completion_tokens_p50"), .numeric("fallback_rate"), .numeric("fallback_ci95_low"),
            .numeric("fallback_ci95_high"), .numeric("fidelity"), .numeric("served_rate"), .numeric("degenerate_output"),
        ])
        let rows: [(variant: String?, row: SummaryRow)] = variants.map { sections in sections.flatMap { s in s.summary.map { (s.name, $0) } } }
            ?? summary.map { (nil, $0) }
        for (variant, row) in rows {
            let l = row.latency
            table.append([.optionalText(variant), .text(row.route.rawValue), .text(row.slice), .int(row.n), .int(row.modelReplies), Self.ms(l?.mean), Self.ms(l?.p50),
                          Self.ms(l?.p50CI?.low), Self.ms(l?.p50CI?.high), Self.ms(l?.p90), Self.ms(l?.p95), Self.ms(l?.p95CI?.low),
                          Self.ms(l?.p95CI?.high), Self.ms(l?.p99), Self.ms(l?.max), Self.ms(row.ttft?.p50), Self.ms(row.tpot?.p50, digits: 2),
                          Self.ms(row.msPerToken?.p50, digits: 2), Self.ms(row.msPerReplyToken?.p50, digits: 2), Self.ms(row.completionTokensP50), .number(row.fallbackRate, digits: 4),
                          .number(row.fallbackCI.low, digits: 4), .number(row.fallbackCI.high, digits: 4),
                          row.fidelity.map { .number($0, digits: 4) } ?? .empty, .number(row.servedRate, digits: 4), .int(row.degenerateOutput)])
        }
        return table
    }

    static func ms(_ value: Double?, digits: Int = 1) -> ReportCell { value.map { .number($0, digits: digits) } ?? .empty }

    static func interval(_ ci: Statistics.Interval?, digits: Int = 0) -> ReportCell {
        ci.map { .text(String(format: "%.\(digits)f–%.\(digits)f", $0.low, $0.high)) } ?? .empty
    }

    /// `2.65× (1.22–3.56, 34 pairs)`; no interval below 10 pairs.
    package static func ratioText(_ ratio: PairedRatio?) -> ReportCell {
        guard let ratio else { return .empty }
        let interval = ratio.ci.map { String(format: "%.2f–%.2f, ", $0.low, $0.high) } ?? ""
        return .text(String(format: "%.2f× (", ratio.medianRatio) + interval + "\(ratio.pairs) pairs)")
    }

    /// Slices with `all` first.
    var slices: [String] {
        Array(Set(summary.map(\.slice))).sorted { $0 == "all" ? true : ($1 == "all" ? false : $0 < $1) }
    }
}
