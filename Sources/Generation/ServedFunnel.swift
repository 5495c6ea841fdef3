import Support
import Checks
import Detection
import Corpus

/// Who is served, and where everyone else was lost, for every detection config the generation half ran: per
/// config × route × language, each person's record counted once at the first stage it failed — detection,
/// the route refusing, the message lost in translation (a pivot whose translate-in scored below
/// the thresholds' `translation_lost_chrf` against the reference; only in runs given references), no model reply, the
/// reply in another language, a degenerate reply — or served. The
/// stages add up to n. With the `oracle` config (the true language), "lost to detection" is what perfect
/// detection would have served beyond the config: served(oracle) − served(config). The reference variant's
/// records only, crisis-flagged ones left out (counted in the report).
package struct ServedFunnel: Sendable, Hashable, Codable {
    /// Where a record stopped.
    package enum Stage: String, Sendable, Codable, CaseIterable, CodingKeyRepresentable {
        /// The detected language was not the person's (and the reply did not serve them anyway).
        case detection
        /// The route refused: direct generation in an unsupported language, or a translation pack missing or nonexistent.
        case refused
        /// The pivot translated the message in so far from its reference (chrF below `lostBelow`, the thresholds' `translation_lost_chrf`)
        /// that whatever the model answered, it answered something else.
        case translation
        /// No model reply: the server failed, timed out, answered nothing, or a translation failed.
        case noReply = "no-reply"
        /// A model reply in another language than the person's (caught by the pipeline's check or by the judge).
        case wrongLanguage = "wrong-language"
        /// A model reply stuck in a loop.
        case degenerate
        case served

        /// The stage `record` stopped at (a crisis-flagged record has none).
        package static func of(_ record: GenerationRecord, lostBelow: Double = Thresholds.defaultTranslationLostChrF) -> Stage {
            let lost = record.route == .pivot && (record.translateInChrF ?? 100) < lostBelow
            if record.servedInOwnLanguage == true && !lost { return .served }
            if !record.detectedRight { return .detection }
            if lost { return .translation }
            if record.notServedReason == NotServed.degenerateOutput { return .degenerate }
            switch record.fallbackReason {
            case .unsupportedLanguage, .translationPackMissing, .translationUnsupported: return .refused
            case nil, .wrongOutputLanguage: return .wrongLanguage
            default: return .noReply
            }
        }

        /// The column title in reports.
        package var title: String {
            switch self {
            case .detection: "lost: detection"
            case .refused: "lost: route refused"
            case .translation: "lost: translation"
            case .noReply: "lost: no model reply"
            case .wrongLanguage: "lost: other language"
            case .degenerate: "lost: degenerate"
            case .served: "served"
            }
        }
    }

    package struct Row: Sendable, Hashable, Codable {
        package var config: String
        package var route: Route
        /// A language code or `all`.
        package var lang: String
        package var n: Int
        /// Records per stage, every stage of the funnel's `stageList` present (zeros included): they add up to `n`. A JSON
        /// object keyed by stage.
        package var stages: [Stage: Int]
        package var served: Int { stages[.served] ?? 0 }
        package var rate: Double { n > 0 ? Double(served) / Double(n) : 0 }
        package var ci: Statistics.Interval
        /// served(oracle) − served(this config) over the same people; nil without an oracle, or for the oracle itself.
        package var lostToDetection: Int?
        /// Records whose requests an earlier config made (the same detected language: the same requests).
        package var shared: Int

        enum CodingKeys: String, CodingKey {
            case config, route, lang, n, stages, ci = "ci95", lostToDetection = "lost_to_detection", shared
        }

        init(config: String, route: Route, lang: String, _ records: [GenerationRecord], stageList: [Stage], lostBelow: Double) {
            self.config = config
            self.route = route
            self.lang = lang
            n = records.count
            var stages = Dictionary(uniqueKeysWithValues: stageList.map { ($0, 0) })
            for record in records { stages[Stage.of(record, lostBelow: lostBelow), default: 0] += 1 }
            self.stages = stages
            ci = Statistics.wilson(successes: stages[.served] ?? 0, trials: n)
            shared = records.filter { $0.shared == true }.count
        }
    }

    /// The name of the config that detects nothing and takes the item's true language.
    package static let oracle = "oracle"

    /// The configs in the order the run ran them (the first is the reference).
    package var configs: [String]
    /// The stages its rows count: every stage but `translation` unless a record was scored against a reference.
    package var stageList: [Stage] { Stage.allCases.filter { stage in stage != .translation || rows.contains { $0.stages[stage] != nil } } }
    package var rows: [Row]
    /// Records of the configs other than the reference (they are in the records log beside the report).
    package var records: Int
    /// Of those, the records whose requests an earlier config made.
    package var shared: Int

    /// The funnel of `reference` (the reference config's records, config nil) and `others` (every other config's),
    /// of the reference variant; nil when the run used one config.
    init?(configs: [String], reference: [GenerationRecord], others: [GenerationRecord], variant: String?,
          lostBelow: Double = Thresholds.defaultTranslationLostChrF) {
        guard configs.count > 1 else { return nil }
        self.configs = configs
        records = others.count
        shared = others.filter { $0.shared == true }.count
        let measured = (reference + others).filter { $0.variant == variant && $0.fallbackReason != .crisisProtocol }
        let stageList = Stage.allCases.filter { $0 != .translation || measured.contains { $0.translateInChrF != nil } }
        let byConfig = Dictionary(grouping: measured, by: { $0.config ?? configs[0] })
        var rows: [Row] = []
        for route in Route.allCases {
            for config in configs {
                let own = (byConfig[config] ?? []).filter { $0.route == route }
                guard !own.isEmpty else { continue }
                rows.append(Row(config: config, route: route, lang: "all", own, stageList: stageList, lostBelow: lostBelow))
                for (lang, subset) in Dictionary(grouping: own, by: \.lang).sorted(by: { $0.key < $1.key }) {
                    rows.append(Row(config: config, route: route, lang: lang.identifier, subset, stageList: stageList, lostBelow: lostBelow))
                }
            }
        }
        if configs.contains(Self.oracle) {
            let oracle = Dictionary(rows.filter { $0.config == Self.oracle }.map { ("\($0.route.rawValue) \($0.lang)", $0.served) }, uniquingKeysWith: { a, _ in a })
            for index in rows.indices where rows[index].config != Self.oracle {
                rows[index].lostToDetection = oracle["\(rows[index].route.rawValue) \(rows[index].lang)"].map { $0 - rows[index].served }
            }
        }
        self.rows = rows
    }

    /// The funnel as a table: per route, config and language, each stage's count, served with its interval, and what
    /// the oracle served beyond it.
    package var table: ReportTable {
        var table = ReportTable(title: "Served, stage by stage, per detection config (stages add up to n)", columns: [
            .init("route"), .init("config"), .init("lang"), .numeric("n"),
        ] + stageList.map { ReportTable.Column.numeric($0.rawValue, title: $0.title) } + [
            .numeric("rate", title: "served %"), .init("ci95", title: "95% CI"),
            .numeric("lost_to_detection", title: "served by the oracle, not by this config"), .numeric("shared", title: "shared requests"),
        ])
        for row in rows {
            table.append([.text(row.route.rawValue), .text(row.config), .text(row.lang), .int(row.n)]
                         + stageList.map { .int(row.stages[$0] ?? 0) }
                         + [.percent(row.rate), .text(DetectionReport.percentInterval(row.ci)), row.lostToDetection.map(ReportCell.int) ?? .empty, .int(row.shared)])
        }
        return table
    }

    /// One sentence: how many records the other configs needed and how many of them reused an earlier config's requests.
    package var sharingSentence: String {
        "The configs beyond the reference made \(records) record(s); \(shared) of them reused an earlier config's requests "
            + "(the same detected language makes the same requests), so \(records - shared) were generated."
    }
}
