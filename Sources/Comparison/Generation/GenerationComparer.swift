import Generation
import Support
import Checks
import Foundation
import Corpus
import Provenance

/// Paired latency, fallback and served-in-own-language checks between two generation runs of the
/// same items: every check compares an item with itself (same route, same repeat).
package enum GenerationComparer {
    /// One item × route × repeat in both runs (crisis-flagged in either run excluded).
    struct Pair {
        var base: GenerationRecord
        var current: GenerationRecord
        var bothModel: Bool { base.outcome == .model && current.outcome == .model }
    }

    static func pairs(base: GenerationReport, current: GenerationReport, route: Route, variant: String? = nil) -> [Pair] {
        let before = Dictionary(base.records.filter { $0.route == route && $0.variant == variant }.map { ($0.key, $0) }, uniquingKeysWith: { a, _ in a })
        return current.records.filter { $0.route == route && $0.variant == variant }.compactMap { record in
            guard let old = before[record.key], old.fallbackReason != .crisisProtocol, record.fallbackReason != .crisisProtocol else { return nil }
            return Pair(base: old, current: record)
        }
    }

    /// `machine` puts latency ratios on a common machine scale (identity for same-runner runs); nil skips latency.
    /// `perLanguage` adds served per route × language (a variants section has its own table of those: `servedByLanguage`).
    package static func checks(base: GenerationReport, current: GenerationReport, thresholds: Thresholds,
                       machine: MachineAdjustment? = .identity, perLanguage: Bool = true) -> [MetricCheck] {
        var checks: [MetricCheck] = []
        let blocks = Blocks(base: base.provenance, current: current.provenance)
        // Prompt token counts are exact only between runs of one tokenizer: the same model file, by SHA-256.
        let model = (base.settings.server["model_sha256"], current.settings.server["model_sha256"])
        let sameTokenizer = model.0 != nil && model.0 == model.1
        let collapsed = (MachineSteadiness.collapsed(base.records), MachineSteadiness.collapsed(current.records))
        // A run with variants is compared variant by variant (the same variant's records pair up).
        let variants = current.records.map(\.variant).reduce(into: [String?]()) { if !$0.contains($1) { $0.append($1) } }
        for variant in variants {
            for route in Route.allCases {
                let paired = pairs(base: base, current: current, route: route, variant: variant)
                guard !paired.isEmpty else { continue }
                let key = CheckKey(variant.map { [.variant: $0, .route: route.rawValue] } ?? [.route: route.rawValue])
                // A collapsed request (either run) is left out of its route's latency, which is judged on the rest; the
                // collapses are shown as a rate. Only a route with fewer steady pairs than collapsed ones is not judged, and said.
                let collapses = (paired.filter { collapsed.0.contains($0.base.key) }.count, paired.filter { collapsed.1.contains($0.current.key) }.count)
                let steady = paired.filter { !collapsed.0.contains($0.base.key) && !collapsed.1.contains($0.current.key) }
                let judgeLatency = steady.count * 2 > paired.count
                if machine != nil, max(collapses.0, collapses.1) > 0 {
                    checks.append(collapseRate(paired, key: key, collapses: collapses, leftOut: paired.count - steady.count, judged: judgeLatency))
                }
                checks += routeChecks(paired, key: key, thresholds: thresholds, machine: judgeLatency ? machine : nil, blocks: blocks,
                                      sameTokenizer: sameTokenizer, sameReferences: GenerationComparability.sameReferences(base, current),
                                      latencyPaired: steady)
                if perLanguage { checks += servedPerLanguage(paired, key: key, thresholds: thresholds) }
            }
        }
        return MetricCheck.holm(checks, alpha: thresholds.alpha)
    }

    /// The routes whose latency `checks` leaves unjudged: more than half their pairs collapsed in one run or the other.
    package static func unjudgedRoutes(base: GenerationReport, current: GenerationReport) -> [(key: String, reason: String, runs: [String])] {
        let collapsed = (MachineSteadiness.collapsed(base.records), MachineSteadiness.collapsed(current.records))
        var out: [(key: String, reason: String, runs: [String])] = []
        for variant in current.records.map(\.variant).reduce(into: [String?](), { if !$0.contains($1) { $0.append($1) } }) {
            for route in Route.allCases {
                let paired = pairs(base: base, current: current, route: route, variant: variant)
                let steady = paired.filter { !collapsed.0.contains($0.base.key) && !collapsed.1.contains($0.current.key) }
                guard !paired.isEmpty, steady.count * 2 <= paired.count else { continue }
                let key = CheckKey(variant.map { [.variant: $0, .route: route.rawValue] } ?? [.route: route.rawValue])
                let runs = [("base", paired.contains { collapsed.0.contains($0.base.key) }), ("current", paired.contains { collapsed.1.contains($0.current.key) })]
                out.append((key.description, "\(paired.count - steady.count) of its \(paired.count) request pairs collapsed", runs.filter(\.1).map(\.0)))
            }
        }
        return out
    }

    /// The share of a route's records whose generation collapsed in each run, shown where its latency was left out.
    static func collapseRate(_ paired: [Pair], key: CheckKey, collapses: (base: Int, current: Int), leftOut: Int, judged: Bool) -> MetricCheck {
        let n = Double(max(1, paired.count))
        return MetricCheck(metric: MetricName.collapsedRequests, key: key, kind: .outcomes, polarity: .lowerIsBetter, base: Double(collapses.base) / n,
                           current: Double(collapses.current) / n, delta: Double(collapses.current - collapses.base) / n, interval: nil, pValue: nil,
                           threshold: 0, n: paired.count, status: .unchanged,
                           rule: "\(collapses.base) collapsed request(s) in base, \(collapses.current) in current (generation below "
                               + "\(Int(MachineSteadiness.slowFraction * 100))% of the run's median tokens/s): "
                               + (judged ? "their \(leftOut) pair(s) are left out of this route's latency, judged on the other \(paired.count - leftOut)"
                                  : "this route's latency is NOT JUDGED: \(leftOut) of its \(paired.count) pairs collapsed, more than half"))
    }

    /// Served in own language per language of a route: the people of one language losing service is what a team
    /// cares about, and a route-wide rate over every language dilutes it. Most such checks are small (a dozen people)
    /// and cannot reach their share of α; the family-wise step leaves those out (Tarone) and says what each can see.
    static func servedPerLanguage(_ paired: [Pair], key: CheckKey, thresholds: Thresholds) -> [MetricCheck] {
        let languages = Set(paired.map(\.current.lang))
        guard languages.count > 1 else { return [] }  // one language: the route's own check is this one
        return languages.sorted().map { lang in
            proportion(paired.filter { $0.current.lang == lang }, metric: MetricName.served, key: key.with(.lang, lang.identifier),
                       polarity: .higherIsBetter, points: thresholds.fallbackPoints) { $0.servedInOwnLanguage == true }
        }
    }

    /// Served in own language per route and language (McNemar on the same records): which of two prompts
    /// serves more people of each language. Holm with Tarone's refinement for discrete tests: a row whose
    /// discordant records are too few for any split to reach α/K cannot be significant and does not count
    /// in the family (K, the smallest with at most K testable rows); it is reported, never judged.
    package static func servedByLanguage(base: GenerationReport, current: GenerationReport, thresholds: Thresholds) -> [MetricCheck] {
        var rows: [(check: MetricCheck, smallestP: Double)] = []
        for route in Route.allCases {
            let paired = pairs(base: base, current: current, route: route)
            for lang in Set(paired.map(\.current.lang)).sorted() {
                let own = paired.filter { $0.current.lang == lang }
                let served = { (record: GenerationRecord) in record.servedInOwnLanguage == true }
                let discordant = own.filter { served($0.base) != served($0.current) }.count
                let check = proportion(own, metric: MetricName.served, key: CheckKey([.route: route.rawValue, .lang: lang.identifier]),
                                       polarity: .higherIsBetter, points: thresholds.fallbackPoints, served)
                rows.append((check, Statistics.signFlipSmallestP(count: discordant)))
            }
        }
        let k = (1...max(1, rows.count)).first { k in rows.filter { $0.smallestP <= thresholds.alpha / Double(k) }.count <= k } ?? rows.count
        let testable = "generation.served_in_own_language by language"
        let checks = rows.map { row in
            var check = row.check
            check.family = row.smallestP <= thresholds.alpha / Double(k) ? testable : testable + " (too few discordant records to test)"
            if check.family != testable { check.regressionP = 1; check.improvementP = 1 }
            return check
        }
        return MetricCheck.holm(checks, alpha: thresholds.alpha)
    }

    /// Latency, served-in-own-language, token cost, translation quality (the pivot's, per language) and per-reason
    /// fallback checks of one route's pairs.
    static func routeChecks(_ paired: [Pair], key: CheckKey, thresholds: Thresholds, machine: MachineAdjustment?, blocks: Blocks?,
                            sameTokenizer: Bool = true, sameReferences: Bool = true, latencyPaired: [Pair]? = nil) -> [MetricCheck] {
        var checks: [MetricCheck] = []
        if let machine {
            // Latency over the steady pairs (`latencyPaired`: collapsed requests left out), every other check over all of them.
            let timed = latencyPaired ?? paired
            let leftOut = paired.count - timed.count
            for metric in LatencyMetric.allCases {
                var check = latency(timed, metric: metric, key: key, thresholds: thresholds, machine: machine, blocks: blocks)
                if leftOut > 0 { check.rule += "; \(leftOut) collapsed request pair(s) left out" }
                checks.append(check)
            }
            if var tail = TailLatency.check(timed, key: key, thresholds: thresholds, machine: machine, blocks: blocks) {
                if leftOut > 0 { tail.rule += "; \(leftOut) collapsed request pair(s) left out" }
                checks.append(tail)
            }
        }
        checks.append(proportion(paired, metric: MetricName.served, key: key, polarity: .higherIsBetter,
                                 points: thresholds.fallbackPoints) { $0.servedInOwnLanguage == true })
        // Token counts are checked whatever the latency basis, even with latency skipped.
        checks += TokenCost.checks(paired, key: key, threshold: thresholds.tokenCostRatio, sameTokenizer: sameTokenizer)
        if key[.route] == Route.pivot.rawValue, sameReferences { checks += TranslationChrF.checks(paired, key: key, thresholds: thresholds) }
        let reasons = Set(paired.flatMap { [$0.base.fallbackReason, $0.current.fallbackReason] }.compactMap { $0 }).sorted()
        for reason in reasons {
            checks.append(proportion(paired, metric: MetricName.fallbackRate, key: key.with(.reason, reason.rawValue),
                                     polarity: .lowerIsBetter, points: thresholds.fallbackPoints, moves: ("fell back", "recovered")) { $0.fallbackReason == reason })
        }
        return checks
    }

    /// The latency figures compared, each paired per item.
    enum LatencyMetric: String, CaseIterable {
        case total = "generation.latency", ttft = "generation.ttft", tpot = "generation.tpot"

        func value(_ record: GenerationRecord) -> Double? {
            switch self {
            case .total: record.totalMs
            case .ttft: record.ttftMs
            case .tpot: record.tpotMs
            }
        }

        /// How the figure splits into prompt processing, generation and other time: what scales it between machines.
        func mix(_ record: GenerationRecord) -> LatencyMix {
            switch self {
            case .total: LatencyMix.total(record)
            case .ttft: LatencyMix.ttft(record)
            case .tpot: LatencyMix.tpot
            }
        }
    }

    /// Geometric mean of the per-item CURRENT/BASE ratio: log-ratios averaged over an item's repeats,
    /// then bootstrapped over items. Pairs that lost a model reply in either run are counted, not timed.
    /// With a calibrated `machine`, each item's ratio is divided by its own machine factor (the base record's mix of
    /// prompt processing, generation and other time) and the thresholds are moved out by the factors' intervals, so the
    /// calibration's spread is part of the verdict.
    static func latency(_ paired: [Pair], metric: LatencyMetric, key: CheckKey, thresholds: Thresholds,
                        machine: MachineAdjustment = .identity, blocks: Blocks? = nil) -> MetricCheck {
        var perItem: [String: [Double]] = [:]
        var before: [Double] = [], after: [Double] = []
        var mix = LatencyMix.zero
        for pair in paired where pair.bothModel {
            guard let a = metric.value(pair.base), let b = metric.value(pair.current), a > 0, b > 0 else { continue }
            let own = metric.mix(pair.base)
            perItem[pair.base.itemID, default: []].append(log(b / a) - log(machine.factor(own)))
            mix = mix + own
            before.append(a)
            after.append(b)
        }
        let lost = paired.filter { !$0.bothModel }.count
        let items = perItem.keys.sorted()
        let logs = items.map { Statistics.mean(perItem[$0]!) }
        let threshold = thresholds.latencyRatio
        var check = MetricCheck(metric: metric.rawValue, key: key, kind: .latency, polarity: .lowerIsBetter,
                                base: before.isEmpty ? .nan : Statistics.quantile(before, 0.5),
                                current: after.isEmpty ? .nan : Statistics.quantile(after, 0.5),
                                delta: logs.isEmpty ? .nan : exp(Statistics.mean(logs)) - 1, interval: nil, pValue: nil, threshold: threshold,
                                n: logs.count, status: .unchanged, rule: "")
        check.lost = lost
        check.movedCandidates = .ratios(zip(items, logs).map { ($0, exp($1)) }, threshold: threshold)
        let lostText = "\(lost) pair(s) without a model reply in one run counted apart"
        guard logs.count >= Statistics.minimumForInterval else {
            check.rule = "paired per-item ratio: fewer than \(Statistics.minimumForInterval) items with a model reply in both runs, not judged; \(lostText)"
            check.powerNote = "cannot see a change of \(check.thresholdText) with n = \(logs.count): fewer than \(Statistics.minimumForInterval) items, not judged"
            return check
        }
        let grouped = blocks.map { blocks in Dictionary(grouping: items.indices, by: { blocks.block(of: items[$0]) }) }
        if let grouped, grouped.count > 1 {
            let means = grouped.keys.sorted().map { block in Statistics.mean(grouped[block]!.map { logs[$0] }) }
            check.delta = exp(Statistics.mean(means)) - 1
            judgeBlockMeans(&check, means: means, spread: machine.relativeInterval(mix), threshold: threshold)
        } else {
            judgeLogRatio(&check, boot: Statistics.bootstrapMeans(logs), spread: machine.relativeInterval(mix), threshold: threshold)
        }
        let resampled = (grouped?.count ?? 0) > 1
            ? "Student's t on the means of the \(grouped!.count) blocks both runs were measured in (drift between blocks is the spread)" : "bootstrap over items"
        check.rule = "geometric mean of paired per-item CURRENT/BASE ratios (repeats resampled with their item), \(resampled): "
            + "regression when it is significantly above \(1 + threshold), improvement when below \(1 - threshold) (Holm within latency's share of α); \(lostText)"
            + machine.ruleNote(mix, what: "ratios")
        return check
    }

    /// Sets a ratio check's interval, one-sided p-values and power from the sorted bootstrap distribution of its
    /// log-ratio (already on the common machine scale); `spread` is the machine factor's interval relative to the
    /// factor (a point for raw comparisons), by which the interval widens and the thresholds move out.
    static func judgeLogRatio(_ check: inout MetricCheck, boot: [Double], spread: Statistics.Interval, threshold: Double) {
        let raw = Statistics.Interval(low: exp(Statistics.quantile(sorted: boot, 0.025)), high: exp(Statistics.quantile(sorted: boot, 0.975)))
        check.interval = .init(low: raw.low / spread.high, high: raw.high / spread.low)
        let widen = (up: log(spread.high), down: -log(spread.low))
        check.regressionP = Statistics.bootstrapPValue(boot, beyond: log(1 + threshold) + widen.up, above: true)
        check.improvementP = Statistics.bootstrapPValue(boot, beyond: log(1 - threshold) - widen.down, above: false)
        check.pValue = min(check.regressionP, check.improvementP)
        check.powerBasis = .logRatio(standardError: Statistics.standardDeviation(boot))
        check.smallestP = 1 / Double(boot.count + 1)
    }

    /// Sets a ratio check's interval, one-sided p-values and power from the mean log-ratios of the blocks of time both
    /// runs were measured in (the interleaved blocks of a same-runner A/B): Student's t with blocks − 1 degrees of
    /// freedom. Drift between blocks is what varies, and a handful of blocks is too few for a bootstrap to see how far
    /// their mean can wander (at a true ratio of exactly the threshold, four blocks resampled flagged 11.4% at a
    /// nominal 5%, Student's t 5.1%: `BlockDriftTests`).
    static func judgeBlockMeans(_ check: inout MetricCheck, means: [Double], spread: Statistics.Interval, threshold: Double) {
        let degrees = Double(means.count - 1)
        let mean = Statistics.mean(means), se = Statistics.standardDeviation(means) / Double(means.count).squareRoot()
        let t = Statistics.studentTQuantile(0.975, degrees: degrees)
        check.interval = .init(low: exp(mean - t * se) / spread.high, high: exp(mean + t * se) / spread.low)
        let widen = (up: log(spread.high), down: -log(spread.low))
        // P(mean at least this far above the bound | the true mean is on it); a spread of 0 leaves the sign alone.
        func beyond(_ bound: Double, above: Bool) -> Double {
            guard se > 0 else { return (above ? mean > bound : mean < bound) ? 0 : 1 }
            let z = (mean - bound) / se
            return above ? 1 - Statistics.studentTCDF(z, degrees: degrees) : Statistics.studentTCDF(z, degrees: degrees)
        }
        check.regressionP = beyond(log(1 + threshold) + widen.up, above: true)
        check.improvementP = beyond(log(1 - threshold) - widen.down, above: false)
        check.pValue = min(check.regressionP, check.improvementP)
        check.powerBasis = .blockMeans(standardError: se, blocks: means.count)
        check.smallestP = 0
    }

    /// A per-record yes/no compared on the same records with McNemar's test, one-sided in each direction
    /// (a regression is tested for as a regression). An item's repeats are not independent pairs (the same
    /// prompt tends to fall back again): with one record per item it is the exact test; with repeats, the
    /// exact test clustered by item (`Statistics.mcnemarClusteredOneSided`: each item's imbalance as likely
    /// either way under no change), whose size holds at any number of discordant items — collapsing repeats
    /// to one yes/no per item would throw away an item that is flagged in some repeats only.
    /// `moves` names a record that gained the flag and one that lost it, for the items that moved.
    static func proportion(_ paired: [Pair], metric: String, key: CheckKey, polarity: MetricCheck.Polarity, points: Double,
                           moves: (gained: String, lost: String) = ("gained", "lost"), _ flag: (GenerationRecord) -> Bool) -> MetricCheck {
        let n = paired.count
        let onlyBase = paired.filter { flag($0.base) && !flag($0.current) }.count
        let onlyCurrent = paired.filter { !flag($0.base) && flag($0.current) }.count
        let before = Double(paired.filter { flag($0.base) }.count) / Double(n), after = Double(paired.filter { flag($0.current) }.count) / Double(n)
        let items = Dictionary(grouping: paired, by: \.base.itemID)
        // Per pair, whether it moved the bad way (gained a bad flag, lost a good one) and the good way.
        let gained = paired.map { !flag($0.base) && flag($0.current) }, lost = paired.map { flag($0.base) && !flag($0.current) }
        let (worseWay, betterWay) = polarity == .lowerIsBetter ? (gained, lost) : (lost, gained)
        let worseP: Double, betterP: Double, designEffect: Double, test: String, smallestP: Double
        if items.count == n {
            let (w, b) = (worseWay.filter { $0 }.count, betterWay.filter { $0 }.count)
            worseP = Statistics.mcnemarExactOneSided(worse: w, better: b)
            betterP = Statistics.mcnemarExactOneSided(worse: b, better: w)
            designEffect = 1
            test = "McNemar exact, one-sided, on the same records"
            smallestP = Statistics.signFlipSmallestP(count: w + b)
        } else {
            let units = Dictionary(grouping: paired.indices, by: { paired[$0].base.itemID }).values.map { pairs in
                (b: pairs.filter { worseWay[$0] }.count, c: pairs.filter { betterWay[$0] }.count)
            }
            worseP = Statistics.mcnemarClusteredOneSided(units)
            betterP = Statistics.mcnemarClusteredOneSided(units.map { (b: $0.c, c: $0.b) })
            smallestP = Statistics.signFlipSmallestP(count: units.filter { $0.b != $0.c }.count)
            // Σ(bᵢ − cᵢ)² against b + c: how much more the item sums vary than independent records would.
            let discordant = onlyBase + onlyCurrent
            let spread = Statistics.mcnemarClustered(units).spread
            designEffect = discordant > 0 ? spread * spread / Double(discordant) : Double(n) / Double(items.count)
            test = "McNemar exact, one-sided, clustered by item (\(items.count) items, repeats as one unit; sign-flip distribution) on the same records"
        }
        let worse = polarity == .lowerIsBetter ? after - before : before - after
        var check = MetricCheck(metric: metric, key: key, kind: .outcomes, polarity: polarity, base: before, current: after, delta: after - before,
                                interval: nil, pValue: worse >= 0 ? worseP : betterP, threshold: points / 100, n: n, status: .unchanged,
                                rule: "\(test) (\(onlyBase) only in base, \(onlyCurrent) only in current), Holm within its share of α, and a change of more than \(points) points")
        check.regressionP = worse * 100 > points ? worseP : 1
        check.improvementP = -worse * 100 > points ? betterP : 1
        check.powerBasis = .paired(churn: Double(2 * min(onlyBase, onlyCurrent)) / Double(n), n: n, designEffect: designEffect)
        check.smallestP = smallestP
        check.movedCandidates = .flagged(paired, good: polarity == .higherIsBetter, names: moves, flag)
        return check
    }

    /// The blocks of time two merged runs were measured in, when both were merged from the same shards
    /// (the interleaved blocks of a same-runner A/B): an item's block is the shard that holds it.
    struct Blocks {
        let shards: [Shard]

        init?(base: Provenance, current: Provenance) {
            guard let a = base.blocks, let b = current.blocks, Set(a) == Set(b) else { return nil }
            do {
                shards = try a.sorted().map(Shard.init)
            } catch {
                return nil  // not written by merge: no blocks, and the check's rule says "bootstrap over items"
            }
        }

        func block(of item: String) -> Int {
            shards.firstIndex { $0.contains(item) } ?? -1
        }
    }
}
