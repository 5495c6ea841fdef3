import Support
import Detection
import Foundation
import Corpus

/// How far "served" can be trusted: the run's judge (the built-in recognizer, over every language) and a second judge
/// (`--judge exec:CMD`, e.g. the Lingua adapter) both read every model reply that is not degenerate, and per route ×
/// language the report gives what each served, the replies they disagree on ("uncertain"), and their agreement as
/// Cohen's κ with a bootstrap interval. Short replies (under 5 tokens) are judged and counted, never skipped. The
/// reference config's records of the reference variant; crisis-flagged ones are left out.
package struct JudgeAgreement: Sendable, Hashable, Codable {
    package struct Row: Sendable, Hashable, Codable {
        package var route: Route
        /// A language code or `all`.
        package var lang: String
        /// Records (every outcome): the denominator of served.
        package var n: Int
        /// Model replies, not degenerate, that both judges read.
        package var judged: Int
        package var servedFirst: Int
        package var servedSecond: Int
        /// Judged replies the judges disagree on.
        package var uncertain: Int
        /// Judged replies under `shortTokens` tokens.
        package var short: Int
        /// Cohen's κ over the judged replies; nil when there are none, or either judge gave them all one verdict (κ is
        /// then 0 or undefined whatever the agreement: read `uncertain`).
        package var kappa: Double?
        /// Percentile bootstrap interval of κ over the judged replies (2000 resamples, seeded); nil with κ. Not a 95%
        /// interval at a dozen replies: it covers far less there (`theKappaIntervalsCoverageIsWhatTheLabelSays`).
        package var kappaCI: Statistics.Interval?

        enum CodingKeys: String, CodingKey {
            case route, lang, n, judged, servedFirst = "served_first", servedSecond = "served_second", uncertain, short, kappa
            case kappaCI = "kappa_ci95"
        }

        init(route: Route, lang: String, _ records: [GenerationRecord]) {
            self.route = route
            self.lang = lang
            n = records.count
            servedFirst = records.filter { $0.servedInOwnLanguage == true }.count
            servedSecond = records.filter { $0.servedBySecondJudge == true }.count
            let pairs = records.filter(JudgeAgreement.judged).map { ($0.servedInOwnLanguage == true, $0.servedBySecondJudge == true) }
            judged = pairs.count
            uncertain = pairs.filter { $0.0 != $0.1 }.count
            short = records.filter { JudgeAgreement.judged($0) && ($0.replyTokens ?? 0) < JudgeAgreement.shortTokens }.count
            kappa = JudgeAgreement.kappa(pairs)
            kappaCI = kappa == nil ? nil : JudgeAgreement.kappaInterval(pairs)
        }
    }

    /// Replies under this many tokens are "short" (the Language Confusion Benchmark skips them; here they are counted).
    package static let shortTokens = 5

    package var first: String
    package var second: String
    package var rows: [Row]

    /// The agreement of `records`' two verdicts; nil when no record was read by a second judge.
    init?(records: [GenerationRecord], first: String?, second: String?, variant: String?) {
        guard let second else { return nil }
        let measured = records.filter { $0.variant == variant && $0.fallbackReason != .crisisProtocol }
        self.first = first ?? "the run's judge"
        self.second = second
        var rows: [Row] = []
        for route in Route.allCases {
            let own = measured.filter { $0.route == route }
            guard !own.isEmpty else { continue }
            rows.append(Row(route: route, lang: "all", own))
            for (lang, subset) in Dictionary(grouping: own, by: \.lang).sorted(by: { $0.key < $1.key }) {
                rows.append(Row(route: route, lang: lang.identifier, subset))
            }
        }
        self.rows = rows
    }

    /// Whether both judges read `record`'s reply: a model reply, not degenerate, with a second verdict.
    static func judged(_ record: GenerationRecord) -> Bool {
        record.outcome == .model && record.notServedReason != NotServed.degenerateOutput && record.servedBySecondJudge != nil
    }

    /// Cohen's κ of paired binary verdicts: (observed − chance agreement) / (1 − chance agreement).
    package static func kappa(_ pairs: [(Bool, Bool)]) -> Double? {
        guard !pairs.isEmpty else { return nil }
        let m = Double(pairs.count)
        let both = Double(pairs.filter { $0.0 && $0.1 }.count), neither = Double(pairs.filter { !$0.0 && !$0.1 }.count)
        let firstYes = Double(pairs.filter(\.0).count) / m, secondYes = Double(pairs.filter(\.1).count) / m
        // A judge that gave every reply one verdict leaves κ at 0 (or undefined) however often the two agree: no κ.
        guard (0 < firstYes && firstYes < 1) && (0 < secondYes && secondYes < 1) else { return nil }
        let observed = (both + neither) / m
        let chance = firstYes * secondYes + (1 - firstYes) * (1 - secondYes)
        return (observed - chance) / (1 - chance)
    }

    /// The 2.5th and 97.5th percentiles of κ over resamples of the pairs (a resample whose κ is undefined is drawn again).
    static func kappaInterval(_ pairs: [(Bool, Bool)], resamples: Int = 2000, seed: UInt64 = 42) -> Statistics.Interval? {
        var generator = SplitMix64(seed: seed)
        var estimates: [Double] = []
        var draws = 0
        while estimates.count < resamples && draws < resamples * 10 {
            draws += 1
            let sample = (0..<pairs.count).map { _ in pairs[Int.random(in: 0..<pairs.count, using: &generator)] }
            if let value = kappa(sample) { estimates.append(value) }
        }
        guard estimates.count == resamples else { return nil }
        let sorted = estimates.sorted()
        return Statistics.Interval(low: Statistics.quantile(sorted: sorted, 0.025), high: Statistics.quantile(sorted: sorted, 0.975))
    }

    /// The agreement as a table: per route and language, served by each judge, the uncertain and short replies, κ.
    package var table: ReportTable {
        var table = ReportTable(title: "Two judges of served: \(first) and \(second)", columns: [
            .init("route"), .init("lang"), .numeric("n"), .numeric("served_first", title: "served (first judge)"),
            .numeric("served_second", title: "served (second judge)"), .numeric("judged", title: "replies both read"),
            .numeric("uncertain", title: "uncertain (judges disagree)"), .numeric("short", title: "short (under \(Self.shortTokens) tokens)"),
            .numeric("kappa", title: "Cohen's κ"), .init("kappa_ci95", title: "κ bootstrap 2.5–97.5%"),
        ])
        for row in rows {
            table.append([.text(row.route.rawValue), .text(row.lang), .int(row.n), .int(row.servedFirst), .int(row.servedSecond), .int(row.judged),
                          .int(row.uncertain), .int(row.short), row.kappa.map { .number($0, digits: 2) } ?? .empty,
                          row.kappaCI.map { .text(String(format: "%.2f–%.2f", $0.low, $0.high)) } ?? .empty])
        }
        return table
    }

    /// What a run with one judge says instead of the table.
    package static func oneJudge(_ judge: String?) -> String {
        "Served is judged by one judge (\(judge ?? "the pipeline's detector")); give a second (--judge exec:CMD, or generation.judge in "
            + "bench.json) to see how far the two agree."
    }
}
