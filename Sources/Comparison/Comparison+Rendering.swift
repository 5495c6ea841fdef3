import Support
import Checks
import Detection
import Foundation
import Generation

/// The comparison as Markdown (for a PR comment), JSON and JUnit XML.
extension Comparison {
    package var markdown: String {
        var out = !regressions.isEmpty ? "## ❌ LangBench: \(regressions.count) regression(s)\n\n"
            : latencyNotJudged == nil ? "## ✅ LangBench: no regression\n\n" : "## ⚠️ LangBench: no regression in the checks judged; latency not judged\n\n"
        if let latencyNotJudged { out += "**\(ReportText.markdown(latencyNotJudged.note))**\n\n" }
        out += "Base \(ReportText.code(base)) → current \(ReportText.code(current)). \(checks.count) metrics checked, \(regressions.count) regressed, \(improvements.count) improved; "
            + "\(gatingChecks) gating checks, family-wise α = \(thresholds.alpha)\(alphaSplitText) (Holm within each).\n\n"
        if !visibility.isEmpty {
            out += "**What this compare can see** (80% power at the level each check is tested at): " + visibility.joined(separator: "; ") + ".\n\n"
        }
        for note in notes where note != latencyNotJudged?.note { out += "> \(ReportText.markdown(note))\n" }
        if !notes.isEmpty { out += "\n" }
        if !environment.isEmpty { out += MarkdownWriter.render(environmentTable) + "\n" }
        let blind = checks.filter { $0.powerNote?.hasPrefix("cannot see") == true }
        if !blind.isEmpty {
            out += "**\(blind.count) check(s) cannot see their threshold:**\n\n" + blindSummary.map { "- " + ReportText.markdown($0) }.joined(separator: "\n") + "\n\n"
            out += "<details><summary>the \(blind.count) check(s), one by one</summary>\n\n"
            out += blind.map { "- \(MarkdownWriter.inline($0.metric)) \(MarkdownWriter.inline($0.key.description)): \(ReportText.markdown($0.powerNote!))" }.joined(separator: "\n")
            out += "\n\n</details>\n\n"
        }
        if !regressions.isEmpty { out += MarkdownWriter.render(table(regressions, title: "Regressions")) + "\n" }
        for check in checks where check.status != .unchanged {
            guard let moved = check.moved, !moved.isEmpty else { continue }
            let total = check.movedTotal ?? moved.count
            out += "<details><summary>\(total) item(s) moved in \(MarkdownWriter.inline(check.metric)) \(MarkdownWriter.inline(check.key.description))</summary>\n\n"
            // A PR comment has room for the first few; the HTML page and the JSON list up to `MovedItem.listed`.
            let shown = moved.prefix(MovedItem.listedInComment)
            out += shown.map { "- " + MarkdownWriter.inline($0.name) + ": " + ReportText.markdown("\($0.change), \($0.detail)") }.joined(separator: "\n")
            out += (total > shown.count ? "\n- … and \(total - shown.count) more (compare.html, or --format json)" : "") + "\n\n</details>\n\n"
        }
        if !improvements.isEmpty { out += MarkdownWriter.render(table(improvements, title: "Improvements")) + "\n" }
        let unchanged = checks.filter { $0.status == .unchanged }
        if !unchanged.isEmpty {
            out += "<details><summary>\(unchanged.count) unchanged</summary>\n\n" + MarkdownWriter.render(table(unchanged, title: "Unchanged"), heading: false) + "\n</details>\n\n"
        }
        out += "### Rules\n\n"
        out += "- Runs must match in corpora, item set, route, profile, model (path and SHA-256), seed, sampling, server threads/slots/context, concurrency, repeats, translation packs, translator, translation references and `translation_lost_chrf`, and cache policy, and — where latency is compared — in the llama.cpp build, the CPU features it uses and the server's settings (and, same-runner, the machine); otherwise `compare` refuses (exit 65) unless `--allow-mismatch`, and every allowed difference is listed above.\n"
        out += "- Every check pairs an item with itself (same route and repeat); an item's repeats are one unit in every test. α = \(thresholds.alpha) is split between the kinds of gating check present (detection and outcomes weigh 2, latency and token cost 1: \(alphaSplitText.isEmpty ? "none present" : String(alphaSplitText.dropFirst(2).dropLast()))), and Holm's correction runs within each kind at its share, so a compare with no real change fails with probability at most \(thresholds.alpha). Exact checks spend no α; checks not judged neither; a test whose smallest possible p cannot reach its share's level is left out (Tarone).\n"
        out += "- **mde**: the change a check flags with 80% power at its n, tested at its kind's share over the kind's gating checks (Holm's first step; a check outside them, at the level it would have joining them with the checks its change moves too: a language's drop moves that language in every config and each config's accuracy and cost, a config's accuracy its cost): for bootstrapped ratios exp((z₁₋α + z₀.₈)·SE) − 1 beyond the threshold's ratio, SE the standard deviation of the bootstrap log-ratios — over blocks, exp(δ·SE/c₄) − 1, δ the shift at which Student's t on the blocks passes its critical value 80% of the time (noncentral t), SE/c₄ the blocks' spread without its small-sample bias; for the exact sign-flip tests on k values (token totals over items; the slowest tenth, each item against the rest of its block) exp(δ·s) − 1, δ the shift per value at which the test reaches the level 80% of the time (simulated up to 12 values, the noncentral t past the self-normalised sum's critical value above), s each value's spread (tokens: the ratio's standard error × √k; the tail: the robust spread of the block-relative log-ratios with their reference's noise); for McNemar rates the smallest drop from no change whose exact one-sided p reaches the level with 80% probability under the alternative — that many units moved one way on top of the background churn moving both ways at random (Poisson, churn·n/2 each way, churn = 2·min(b, c)/n), repeats counted as n/deff units (deff = Σ(bᵢ−cᵢ)²/(b + c), 1 without repeats), so without churn ⌈log₂(1/level)⌉ units of n; 0 for exact checks; none, and \"no item changed: nothing to test\", for a ratio whose every item is unchanged. **What this compare can see** names the mde of the language it sees least — fewest items, or most items flipped both ways, with the fixed and broken items it saw — (moved in every config at once, as a recognizer change moves it: its kind's share over the checks that change makes testable — each config's language check and its config-wide detection checks), the largest config (a change spread thin over its languages: its config-wide checks), the smallest served language (its check, its route's and a fallback reason's), latency and tokens, and the items or blocks that would see the threshold (for latency and tokens, twice it). When the threshold is below it, the check says \"cannot see a change of … with n = …\" (listed above).\n"
        out += "- **detection.accuracy** (higher is better): McNemar's exact test, one-sided, on the same items; regression when significant after Holm **and** the drop exceeds \(thresholds.accuracyPoints) points per config, or \(thresholds.languageAccuracyPoints) points for a language with ≥ \(thresholds.languageMinItems) items.\n"
        out += "- **generation.latency / ttft / tpot** (lower is better): geometric mean of per-item CURRENT/BASE ratios of total_ms, ttft_ms and tpot_ms (between interleaved blocks of one runner, Student's t on the blocks' means; otherwise 2000 bootstrap resamples over items, repeats with their item); regression when significantly above ×\(1 + thresholds.latencyRatio). **\(MetricName.slowestTenth)** (its own share of α): the mean log-ratio of total_ms over the slowest tenth of items, ranked by √(base·current) — between interleaved blocks, each relative to the mean log-ratio of the rest of its block — exact sign-flip test; the same threshold, judged from \(TailLatency.minimumItems) items. Pairs without a model reply in one run are counted in `lost` and judged by the rate checks. Not judged, and no interval, below \(Statistics.minimumForInterval) items.\n"
        out += "- **generation.served_in_own_language** (higher is better) and **generation.fallback_rate** per reason (lower is better): McNemar's exact test, one-sided, on the same records, clustered by item when there are repeats (the exact sign-flip distribution of the items' imbalances; crisis-flagged excluded); regression when significant after Holm and the change exceeds \(thresholds.fallbackPoints) points.\n"
        out += "- **Token cost** (lower is better), over the records with a model reply in both runs. **generation.prompt_tokens_fixed**: the prompt tokens the server evaluated (`prompt_n`) of fixed prompts (direct generate, pivot translate-in), compared exactly: with a cold cache and one model file (by SHA-256) they are the same on any runner; regression when the total rises by more than \(TokenCost.percent(thresholds.tokenCostRatio)), and the first records that changed are listed. **generation.tokens_generated** and **generation.prompt_tokens_of_sampled_text** (prompts that embed generated text: pivot generate and translate-out): sampled text differs between CPUs and after any prompt edit, so the ratio of totals is tested by an exact sign-flip test over items (an item's two counts are exchangeable under no change, whatever their tails; the interval is the ratios the test does not reject); regression when significantly above ×\(1 + thresholds.tokenCostRatio).\n"
        out += "- Improvements use the same rules in the other direction and never fail the job.\n"
        return out
    }

    /// ` (detection 0.0167, latency 0.0083, …)`: each kind's share of α; empty when nothing gates.
    package var alphaSplitText: String {
        let order = MetricCheck.Kind.allCases.map(\.rawValue)
        let shares = alphaShares.sorted { order.firstIndex(of: $0.key) ?? 0 < order.firstIndex(of: $1.key) ?? 0 }
        return shares.isEmpty ? "" : " (" + shares.map { String(format: "%@ %.4g", $0.key, $0.value) }.joined(separator: ", ") + ")"
    }

    /// What the runs computed with that differs, and what each difference does to the comparison.
    package var environmentTable: ReportTable {
        var table = ReportTable(title: "Environment", columns: [.init("what"), .init("base"), .init("current"), .init("consequence")])
        for row in environment { table.append([.text(row.name), .text(row.base), .text(row.current), .text(row.consequence)]) }
        return table
    }

    static let latencyMetrics: Set<String> = [MetricName.latency, MetricName.ttft, MetricName.tpot, MetricName.slowestTenth]

    package func table(_ checks: [MetricCheck], title: String) -> ReportTable {
        var table = ReportTable(title: title, columns: [
            .init("metric"), .init("key"), .numeric("base"), .numeric("current"), .numeric("delta"), .init("interval"),
            .numeric("p"), .numeric("p_holm", title: "p (Holm)"), .numeric("threshold"), .numeric("mde"), .numeric("n"), .numeric("lost"),
        ])
        for c in checks {
            let tokens = TokenCost.metrics.contains(c.metric)
            let latency = Self.latencyMetrics.contains(c.metric) || tokens
            let value: (Double) -> ReportCell = { latency ? .number($0, digits: c.metric == MetricName.tpot ? 1 : 0) : .percent($0) }
            // A ratio over nothing (0 tokens on both sides) has no delta: a dash, never "nan".
            let delta: ReportCell = !c.delta.isFinite ? .text("—")
                : latency ? .text(String(format: "%+.1f%%", c.delta * 100))
                : .text(String(format: "%+.1f pts", c.delta * 100) + (c.fixed.map { " (\($0) fixed, \(c.broken ?? 0) broken)" } ?? ""))
            let interval: ReportCell = c.interval.map {
                latency ? .text(String(format: "×%.2f–%.2f", $0.low, $0.high)) : .text(DetectionReport.percentInterval($0))
            } ?? .empty
            let threshold: ReportCell = tokens ? .text("+" + TokenCost.percent(c.threshold))
                : latency ? .text(String(format: "×%.2f", 1 + c.threshold)) : .text(String(format: "%.1f pts", c.threshold * 100))
            let mde: ReportCell = c.mde.map { tokens && c.family.hasPrefix("exact") ? .text("0 (exact)") : latency ? .text(String(format: "%+.1f%%", $0 * 100)) : .text(String(format: "%.2f pts", $0 * 100)) } ?? .empty
            table.append([.text(c.metric), .text(c.key.description), value(c.base), value(c.current), delta, interval,
                          c.pValue.map { .text(DetectionReport.pValue($0)) } ?? .empty, c.adjustedP.map { .text(DetectionReport.pValue($0)) } ?? .empty,
                          threshold, mde, .int(c.n), c.lost.map(ReportCell.int) ?? .empty])
        }
        return table
    }

    package var json: String {
        (try? JSONOutput.encode(self)) ?? "{}\n"  // strings and numbers only: encoding cannot fail
    }

    /// JUnit XML: one test case per checked metric; a regression is a failure.
    package var junit: String {
        let escape = ReportText.xml
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<testsuites name=\"langbench\" tests=\"\(checks.count)\" failures=\"\(regressions.count)\">\n"
        let groups = Dictionary(grouping: checks, by: \.metric).sorted { $0.key < $1.key }
        for (metric, group) in groups {
            out += "  <testsuite name=\"\(escape(metric))\" tests=\"\(group.count)\" failures=\"\(group.filter { $0.status == .regression }.count)\">\n"
            for check in group {
                out += "    <testcase classname=\"\(escape(metric))\" name=\"\(escape(check.key.description))\">\n"
                let detail = String(format: "base %.4f, current %.4f, delta %+.4f, p %@, p (Holm) %@, %@", check.base, check.current, check.delta,
                                    check.pValue.map { String(format: "%.4f", $0) } ?? "-", check.adjustedP.map { String(format: "%.4f", $0) } ?? "-", check.rule)
                    + (check.mde.map { String(format: ", mde %.4f", $0) } ?? "") + (check.powerNote.map { "; " + $0 } ?? "")
                    + (check.changes.map { $0.isEmpty ? "" : "; changed: " + $0.joined(separator: "; ") } ?? "")
                if check.status == .regression {
                    out += "      <failure message=\"regression\">\(escape(detail))</failure>\n"
                } else {
                    out += "      <system-out>\(escape(check.status.rawValue + ": " + detail))</system-out>\n"
                }
                out += "    </testcase>\n"
            }
            out += "  </testsuite>\n"
        }
        return out + (latencyNotJudged?.junit ?? "") + "</testsuites>\n"
    }
}
