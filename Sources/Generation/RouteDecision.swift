import Support
import Foundation
import Corpus

/// Per language, the route the runtime support check picks and what each route gave the same people: the table the
/// choice between a direct reply and the English pivot is made from, computed from the records (no new requests).
/// Served is compared on the items run on both routes (exact McNemar, two-sided, clustered by item over repeats);
/// latency as the pivot/direct ratio on the items with a model reply on both (median, order-statistic 95% interval).
package struct RouteDecision: Sendable, Hashable, Codable {
    /// One route's figures for the language.
    package struct Side: Sendable, Hashable, Codable {
        package var n: Int
        package var served: Int
        /// Median end-to-end latency and generated tokens (every request) over model replies.
        package var p50Ms: Double?
        package var tokensP50: Double?

        enum CodingKeys: String, CodingKey { case n, served, p50Ms = "p50_ms", tokensP50 = "tokens_p50" }
    }

    package var lang: String
    /// What the runtime check picks: `direct` for a language the model supports, `pivot` when both translation
    /// packs are installed, otherwise a fallback naming the pack's state.
    package var runtime: String
    package var direct: Side
    package var pivot: Side
    /// Items (× repeats) run on both routes, and those served on only one of them.
    package var pairs: Int
    package var servedOnlyDirect: Int
    package var servedOnlyPivot: Int
    /// Exact two-sided McNemar p of the served difference; nil when no pair differs.
    package var servedP: Double?
    /// Pivot/direct total_ms on the items with a model reply on both routes.
    package var latencyRatio: PairedRatio?
    /// Where the route the runtime does not pick serves significantly more or costs significantly less (each at 5%).
    package var flag: String?
    /// The pivot through each other translation engine of the run (a variant that changed only the translator), by
    /// variant name; nil in a run without one.
    package var otherPivots: [String: Side]?

    enum CodingKeys: String, CodingKey {
        case lang, runtime, direct, pivot, pairs, servedOnlyDirect = "served_only_direct", servedOnlyPivot = "served_only_pivot"
        case servedP = "served_p", latencyRatio = "latency_ratio", flag, otherPivots = "other_pivots"
    }

    /// One route's figures over `records`.
    static func side(_ records: [GenerationRecord]) -> Side {
        let model = records.filter { $0.outcome == .model }
        return Side(n: records.count, served: records.filter { $0.servedInOwnLanguage == true }.count,
                    p50Ms: model.isEmpty ? nil : Statistics.quantile(model.map(\.totalMs), 0.5),
                    tokensP50: model.compactMap(\.completionTokens).isEmpty ? nil : Statistics.quantile(model.compactMap { $0.completionTokens.map(Double.init) }, 0.5))
    }

    /// What the table's columns mean, under it; `pivotVia` when it has columns of another engine's pivot.
    package static func legend(pivotVia: Bool) -> String { legend + (pivotVia ? pivotViaLegend : "") }

    static let legend = "Runtime route: what the support check picks for a message detected right (direct for a language the model "
        + "supports, the pivot when both translation packs are installed). Served and latency are compared on the same items run on both routes: "
        + "served on one route only with an exact McNemar p (two-sided), pivot/direct latency as the median ratio with its order-statistic 95% "
        + "interval. \"The other route\" flags where the route the runtime does not pick serves significantly more or costs significantly less, "
        + "each at 5% and not corrected across languages."
    static let pivotViaLegend = " \"Pivot via\" columns: the same people through the pivot with another translation "
        + "engine (a variant that changed only the translator); a pair the engine lacks falls back, counted as not served."

    /// The rows of `records` (one config and variant, crisis-flagged excluded), one per language, in code order.
    static func all(_ records: [GenerationRecord], settings: GenerationReport.Settings, ratios: [PairedRatio]) -> [RouteDecision] {
        let supported = settings.supportedLanguages.compactMap { try? LanguageCode($0) }  // try?: a profile's codes were checked when it was read
        let english = ReplyPipeline.english
        return Dictionary(grouping: records, by: \.lang).sorted { $0.key < $1.key }.map { lang, own in
            let runtime: String
            if supported.contains(where: { $0.isEquivalent(to: lang) }) {
                runtime = Route.direct.rawValue
            } else {
                let states = [settings.packs.state(from: lang, to: english), settings.packs.state(from: english, to: lang)]
                runtime = states.allSatisfy { $0 == .installed } ? Route.pivot.rawValue
                    : states.contains(.unsupported) ? "fallback (no translation pack)" : "fallback (translation pack not installed)"
            }
            let side = { (route: Route) in Self.side(own.filter { $0.route == route }) }
            var directServed: [String: Bool] = [:]
            for record in own where record.route == .direct { directServed["\(record.itemID)#\(record.repeatIndex)"] = record.servedInOwnLanguage == true }
            var units: [String: (b: Int, c: Int)] = [:]
            var pairs = 0
            for record in own where record.route == .pivot {
                guard let direct = directServed["\(record.itemID)#\(record.repeatIndex)"] else { continue }
                pairs += 1
                let pivot = record.servedInOwnLanguage == true
                if direct != pivot { units[record.itemID, default: (0, 0)].b += direct ? 1 : 0; units[record.itemID, default: (0, 0)].c += pivot ? 1 : 0 }
            }
            let onlyDirect = units.values.map(\.b).reduce(0, +), onlyPivot = units.values.map(\.c).reduce(0, +)
            var row = RouteDecision(lang: lang.identifier, runtime: runtime, direct: side(.direct), pivot: side(.pivot), pairs: pairs,
                                    servedOnlyDirect: onlyDirect, servedOnlyPivot: onlyPivot,
                                    servedP: units.isEmpty ? nil : Statistics.mcnemarClustered(Array(units.values)).p,
                                    latencyRatio: ratios.first { $0.metric == .total && $0.slice == SliceKey.lang("\(lang)").description })
            row.flag = row.otherRouteFlag
            return row
        }
    }

    /// `0.031`, or `< 0.001`.
    static func p(_ value: Double) -> String { value < 0.001 ? "< 0.001" : String(format: "%.3f", value) }

    /// `pivot serves more (+3 of 12, p 0.031)`, `direct costs less (×0.43, 0.38–0.50)`, both, or nil.
    var otherRouteFlag: String? {
        let other: Route = runtime == Route.direct.rawValue ? .pivot : .direct
        var flags: [String] = []
        let gained = other == .pivot ? servedOnlyPivot - servedOnlyDirect : servedOnlyDirect - servedOnlyPivot
        if let servedP, servedP < 0.05, gained > 0 {
            flags.append("\(other.rawValue) serves more (+\(gained) of \(pairs), p \(Self.p(servedP)))")
        }
        if let ratio = latencyRatio, let ci = ratio.ci {
            // The ratio is pivot/direct: the other route is cheaper when its side of the interval is wholly below 1.
            let cheaper = other == .pivot ? ci.high < 1 : ci.low > 1
            let shown = other == .pivot ? (ratio.medianRatio, ci.low, ci.high) : (1 / ratio.medianRatio, 1 / ci.high, 1 / ci.low)
            if cheaper { flags.append(String(format: "%@ costs less (×%.2f, %.2f–%.2f)", other.rawValue, shown.0, shown.1, shown.2)) }
        }
        return flags.isEmpty ? nil : flags.joined(separator: "; ")
    }
}

extension GenerationReport {
    /// Per language, the runtime's route and both routes' figures on the reference config and variant (crisis-flagged
    /// excluded): computed from the records, so every report made of them shows the same table.
    package var routeDecisions: [RouteDecision] {
        let reference = settings.variants?.first?.name
        let measured = records.filter { $0.fallbackReason != .crisisProtocol && $0.variant == reference }
        var rows = RouteDecision.all(measured, settings: settings, ratios: ratios)
        for name in pivotOnlyVariants {
            let own = Dictionary(grouping: records.filter { $0.fallbackReason != .crisisProtocol && $0.variant == name }, by: \.lang.identifier)
            for index in rows.indices { rows[index].otherPivots = (rows[index].otherPivots ?? [:]).merging([name: RouteDecision.side(own[rows[index].lang] ?? [])]) { $1 } }
        }
        return rows
    }

    /// The variants after the reference that ran the pivot alone (they changed only the translator), in declared order.
    package var pivotOnlyVariants: [String] {
        (settings.variants ?? []).dropFirst().map(\.name).filter { name in
            records.contains { $0.variant == name } && !records.contains { $0.variant == name && $0.route == .direct }
        }
    }

    /// The decision table as report.md shows it.
    package var routeDecisionTable: ReportTable {
        let others = pivotOnlyVariants
        var table = ReportTable(title: "Route decision per language (\(settings.detectionName))", columns: [
            .init("lang"), .init("runtime", title: "runtime route"), .init("direct_served", title: "direct served"), .numeric("direct_p50", title: "direct p50 ms"),
            .numeric("direct_tokens", title: "direct tokens p50"), .init("pivot_served", title: "pivot served"), .numeric("pivot_p50", title: "pivot p50 ms"),
            .numeric("pivot_tokens", title: "pivot tokens p50"), .init("served_moved", title: "served on one route only (direct / pivot, exact p)"),
            .init("latency_ratio", title: "pivot/direct latency (95%)"), .init("flag", title: "the other route"),
        ] + others.flatMap { name in
            [.init("pivot_served_\(name)", title: "pivot via \(name) served"), .numeric("pivot_p50_\(name)", title: "pivot via \(name) p50 ms")]
        })
        for row in routeDecisions {
            let served = { (side: RouteDecision.Side) in side.n == 0 ? "—" : "\(side.served)/\(side.n)" }
            let moved = row.servedP.map { "\(row.servedOnlyDirect) / \(row.servedOnlyPivot), p \(RouteDecision.p($0))" } ?? (row.pairs > 0 ? "none" : "—")
            let ratio = row.latencyRatio.map { ratio in
                String(format: "×%.2f", ratio.medianRatio) + (ratio.ci.map { String(format: " (%.2f–%.2f)", $0.low, $0.high) } ?? "")
            } ?? "—"
            table.append([.text(row.lang), .text(row.runtime), .text(served(row.direct)), row.direct.p50Ms.map { .number($0, digits: 0) } ?? .empty,
                          row.direct.tokensP50.map { .number($0, digits: 0) } ?? .empty, .text(served(row.pivot)),
                          row.pivot.p50Ms.map { .number($0, digits: 0) } ?? .empty, row.pivot.tokensP50.map { .number($0, digits: 0) } ?? .empty,
                          .text(moved), .text(ratio), .text(row.flag ?? "")] + others.flatMap { name -> [ReportCell] in
                              let side = row.otherPivots?[name] ?? RouteDecision.Side(n: 0, served: 0)
                              return [.text(served(side)), side.p50Ms.map { .number($0, digits: 0) } ?? .empty]
                          })
        }
        return table
    }
}
