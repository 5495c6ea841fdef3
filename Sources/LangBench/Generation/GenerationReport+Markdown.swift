import Foundation

/// generation.md and its charts.
extension GenerationReport {
    public static let latencyChartFile = "generation-latency.svg"
    public static let fallbackChartFile = "generation-fallbacks.svg"

    public var markdown: String {
        var out = "# Reply generation: direct vs pivot\n\n"
        let items = Set(records.map(\.itemID)).count
        out += "\(items) items, route `\(settings.route.rawValue)`, profile `\(settings.profile)`, \(settings.repeats) repeat(s), "
        out += "concurrency \(settings.concurrency), \(warmupRuns) warm-up request(s) excluded. Detection: \(settings.detection).\n\n"
        out += "Sampling: temperature \(settings.sampling.temperature), top_k \(settings.sampling.topK), top_p \(settings.sampling.topP), "
        out += "min_p \(settings.sampling.minP), seed \(settings.sampling.seed), n_predict \(settings.sampling.nPredict), cache_prompt \(settings.sampling.cachePrompt).\n\n"
        out += MarkdownWriter.render(sideBySideTable) + "\n"
        out += "![Latency by route](\(Self.latencyChartFile))\n\n"
        out += MarkdownWriter.render(latencyTable) + "\n"
        out += "![Fallbacks by reason](\(Self.fallbackChartFile))\n\n"
        out += MarkdownWriter.render(fallbackTable) + "\n"
        let fidelity = fidelityTable
        if !fidelity.rows.isEmpty { out += MarkdownWriter.render(fidelity) + "\n" }
        out += "Replies are in `replies.jsonl`; per-stage metadata (never text) in `diagnostics.jsonl`.\n\n"
        out += "### Definitions\n\n"
        for (name, text) in definitions.sorted(by: { $0.key < $1.key }) { out += "- **\(name)**: \(text)\n" }
        out += "\n" + ProvenanceMarkdown.footer(provenance)
        return out
    }

    public var latencyChart: String {
        let groups = summary.filter { $0.slice.hasPrefix("lang=") || $0.slice == "all" }.map(\.slice)
        let ordered = Array(Set(groups)).sorted { $0 == "all" ? true : ($1 == "all" ? false : $0 < $1) }
        let routes = Route.allCases.filter { route in summary.contains { $0.route == route } }
        let bars = ordered.map { slice in
            SVGBarChart.Group(label: slice.replacingOccurrences(of: "lang=", with: ""),
                              values: routes.map { self.summary(route: $0, slice: slice)?.latency?.p50 })
        }
        return SVGBarChart(title: "Median total latency by route (ms)", unit: " ms", series: routes.map(\.rawValue), groups: bars).render()
    }

    public var fallbackChart: String {
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
