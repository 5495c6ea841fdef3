import Support
import Detection
import Foundation
import Provenance

/// generation.md and its charts.
extension GenerationReport {
    package static let latencyChartFile = "generation-latency.svg"
    package static let fallbackChartFile = "generation-fallbacks.svg"

    package var markdown: String {
        var out = "# Reply generation: direct vs pivot\n\n" + steadinessWarning
        let items = Set(records.map(\.itemID)).count
        out += "\(items) items, route `\(settings.route.rawValue)`, profile \(ReportText.code(settings.profile)), \(settings.repeats) repeat(s), "
        out += "concurrency \(settings.concurrency), \(warmupRuns) warm-up request(s) excluded. Detection: \(ReportText.markdown(settings.detection)). "
        out += "\(crisisRecords) crisis-flagged record(s) got the fixed safe reply and are left out of every rate.\n\n"
        out += "Sampling: temperature \(settings.sampling.temperature), top_k \(settings.sampling.topK), top_p \(settings.sampling.topP), "
        out += "min_p \(settings.sampling.minP), seed \(settings.sampling.seed), n_predict \(settings.sampling.nPredict), cache_prompt \(settings.sampling.cachePrompt).\n\n"
        out += "Timing design: " + timingDesign + "\n\n"
        out += variantsMarkdown
        if let reference = referenceVariant { out += "## Reference variant \(ReportText.code(reference))\n\n" }
        if let control { out += "**" + control.sentence + "**\n\n" }
        if let restarts = provenance.serverRestarts {
            out += "**llama-server died \(restarts) time(s) during the run and was restarted; the replies it broke were redone, none recorded as a fallback.**\n\n"
        }
        out += serverNotes
        out += MarkdownWriter.render(sideBySideTable) + "\n" + ratioCoverage
        out += "![Latency by route](\(Self.latencyChartFile))\n\n"
        if pool?.pooled ?? true { out += MarkdownWriter.render(latencyTable) + "\n" }
        out += poolMarkdown
        out += MarkdownWriter.render(stageTable) + "\n"
        let ratios = ratioTable
        if !ratios.rows.isEmpty { out += MarkdownWriter.render(ratios) + "\n" }
        out += MarkdownWriter.render(servedTable) + "\n"
        if let quality = translationQualityTable { out += MarkdownWriter.render(quality) + "\n" + TranslationQuality.legend(lostBelow: settings.lostBelowChrF) + "\n\n" }
        out += judges.map { MarkdownWriter.render($0.table) + "\n" } ?? JudgeAgreement.oneJudge(settings.judge) + "\n\n"
        if let funnel {
            out += MarkdownWriter.render(funnel.table) + "\n" + funnel.sharingSentence + "\n\n"
            // The funnel loses a person at the first stage in pipeline order; the served table lists a looping reply first.
            let both = records.filter { !$0.detectedRight && $0.notServedReason == NotServed.degenerateOutput }.count
            if both > 0 {
                out += "\(both) misdetected person(s) also got a looping reply: lost to detection here (the first stage they failed), "
                    + "counted as degenerate-output in the served table (a looping reply serves no one, whatever was detected).\n\n"
            }
        }
        out += "![Fallbacks by reason](\(Self.fallbackChartFile))\n\n"
        out += MarkdownWriter.render(fallbackTable) + "\n"
        out += "Replies are in `replies.jsonl`; per-stage metadata (never text) in `diagnostics.jsonl`.\n\n"
        out += "### Definitions\n\n"
        for (name, text) in definitions.sorted(by: { $0.key < $1.key }) { out += "- **\(name)**: \(text)\n" }
        out += "\n" + ProvenanceMarkdown.footer(provenance)
        return out
    }

    /// What a server did that LangBench had to correct before recording: text past a stop string, a reflected key.
    var serverNotes: String {
        var out = ""
        if let ignoredStop {
            let counts = ignoredStop.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            out += "**The server ignored `stop` in \(ignoredStop.values.reduce(0, +)) record(s) (\(counts)): each reply was cut at its stop string "
                + "(`ignored_stop` in generation-items.csv); their token counts and latency include the run-on text.**\n\n"
        }
        if let secretsRedacted {
            out += "**The server's text held the API key in \(secretsRedacted) record(s); it was redacted before anything was written (`secret_redacted`).**\n\n"
        }
        if let invalidCounts {
            out += "**The server reported token counts no request could have (negative, or beyond `max_tokens`) in \(invalidCounts) record(s); "
                + "they are left unknown (`invalid_counts`), never averaged in.**\n\n"
        }
        return out
    }

    /// A pooled run's servers: what may be pooled, latency per server, and the items that moved off a failed one.
    var poolMarkdown: String {
        guard let pool else { return "" }
        var out = "### Latency per server\n\n" + pool.sentence + "\n\n"
        if let servers = provenance.servers {
            for server in servers where server.failed {
                out += "**\(server.label) failed during the run\(server.failure.map { " (\($0))" } ?? ""): \(server.unitsMoved) item × repeat unit(s) "
                    + "moved to the other servers (marked `reassigned_from` in generation-items.csv); none lost, none recorded twice.**\n\n"
            }
        }
        var table = ReportTable(title: "Latency per server", columns: [
            .init("server"), .init("route"), .numeric("n"), .numeric("model_replies", title: "model replies"), .numeric("p50", title: "p50 ms"),
            .init("p50_ci", title: "95% CI"), .numeric("p95", title: "p95 ms"), .numeric("ttft_p50", title: "TTFT p50 ms"),
            .numeric("reassigned", title: "moved here"), .numeric("calibration", title: "calibration ms"),
        ])
        for row in pool.rows {
            table.append([.text(row.server), .text(row.route.rawValue), .int(row.n), .int(row.modelReplies), Self.ms(row.latency?.p50, digits: 0),
                          Self.interval(row.latency?.p50CI), Self.ms(row.latency?.p95, digits: 0), Self.ms(row.ttftP50, digits: 0), .int(row.reassigned),
                          Self.ms(row.calibrationMs, digits: 0)])
        }
        return out + MarkdownWriter.render(table, heading: false) + "\n"
    }

    /// A bold line when the machine was unsteady during the run (an inconsistent calibration among the reasons);
    /// empty otherwise (the footer has the calibration's figures).
    package var steadinessWarning: String {
        machineSteadiness?.warning ?? ""
    }

    /// Route order and cache state, with what the server's counts say about the cache.
    package var timingDesign: String {
        let orders = Dictionary(grouping: referenceRecords.filter { $0.route == .direct && $0.fallbackReason != .crisisProtocol }, by: \.routeOrder)
        var text = ""
        // A run of one route (or a variant of one) has no order to counterbalance.
        if orders[.directFirst] != nil || orders[.pivotFirst] != nil {
            text += "route order counterbalanced per item (seed \(settings.sampling.seed)): \(orders[.directFirst]?.count ?? 0) direct first, "
            text += "\(orders[.pivotFirst]?.count ?? 0) pivot first; "
        }
        text += "cache policy `\(cache.policy.rawValue)`"
        switch cache.policy {
        case .cold:
            text += cache.holds
                ? ": all \(cache.requests) timed requests evaluated their whole prompt (server prompt_n, cache_n 0)."
                : ": ⚠️ \(cache.requests - cache.coldRequests) of \(cache.requests) timed requests reused \(cache.cachedTokens) cached prompt tokens (server cache_n)."
        case .warmPrefix:
            text += ": each timed request found its instruction prefix cached (\(cache.cachedTokens) prompt tokens reused over \(cache.requests) requests)."
        }
        if let engine = settings.translator {
            text += " The pivot translated with \(engine.name)\(engine.version.map { " \($0)" } ?? ""): its requests are timed per stage; "
                + "its tokens are not the model's, so token counts leave them out."
        }
        return text
    }

    package var latencyChart: String {
        let groups = summary.filter { SliceKey($0.slice).map { $0 == .all || $0.kind == .lang } ?? false }.map(\.slice)
        let ordered = Array(Set(groups)).sorted { $0 == "all" ? true : ($1 == "all" ? false : $0 < $1) }
        let routes = Route.allCases.filter { route in summary.contains { $0.route == route } }
        let bars = ordered.map { slice in
            SVGBarChart.Group(label: SliceKey(slice)?.value ?? slice,
                              values: routes.map { self.summary(route: $0, slice: slice)?.latency?.p50 })
        }
        return SVGBarChart(title: "Median total latency by route (ms)", unit: " ms", series: routes.map(\.rawValue), groups: bars).render()
    }

    /// Served in own language by language and route (%), the page's first chart: who each route serves.
    package var servedChart: String {
        let routes = Route.allCases.filter { route in served.contains { $0.route == route } }
        let languages = Array(Set(served.map(\.lang))).sorted { $0 == "all" ? true : ($1 == "all" ? false : $0 < $1) }
        let groups = languages.map { lang in
            SVGBarChart.Group(label: lang, values: routes.map { route in served.first { $0.route == route && $0.lang == lang }.map { $0.rate * 100 } })
        }
        return SVGBarChart(title: "Served in their own language by language and route (%)", unit: "%", series: routes.map(\.rawValue),
                           groups: groups, maximum: 100).render()
    }

    package var fallbackChart: String {
        let routes = Route.allCases.filter { route in fallbacks.contains { $0.route == route } }
        let reasons = FallbackReason.allCases.filter { reason in fallbacks.contains { $0.reason == reason } }
        let groups = reasons.map { reason in
            SVGBarChart.Group(label: reason.rawValue, values: routes.map { route in
                fallbacks.first { $0.route == route && $0.reason == reason }.map { $0.rate * 100 }
            })
        }
        return SVGBarChart(title: "Fallback rate by reason (%)", unit: "%", series: routes.map(\.rawValue), groups: groups).render()
    }
}
