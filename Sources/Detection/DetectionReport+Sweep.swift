import Support
import Corpus

/// Accuracy against candidate-set size (`DetectionSweep`): per set, in the order the configs ran, how many candidates
/// it has and how often the items whose language is among them are detected right, without and with the priors.
extension DetectionReport {
    package struct SweepPoint: Sendable, Hashable, Codable {
        package var set: String
        /// Candidates in the set; nil for no constraint (every language the detector knows).
        package var candidates: Int?
        /// Items whose true language is in the set.
        package var inside: Int
        package var accuracy: Double
        package var ci: Statistics.Interval
        package var priorsAccuracy: Double?
        package var priorsCI: Statistics.Interval?
        /// The same figures over the items every set keeps (their language in every set): sets compared on one item set.
        package var common: Int?
        package var commonAccuracy: Double?
        package var commonCI: Statistics.Interval?
        package var priorsCommonAccuracy: Double?

        enum CodingKeys: String, CodingKey {
            case set, candidates, inside, accuracy, ci = "ci95", priorsAccuracy = "priors_accuracy", priorsCI = "priors_ci95"
            case common = "common_n", commonAccuracy = "common_accuracy", commonCI = "common_ci95", priorsCommonAccuracy = "priors_common_accuracy"
        }
    }

    package static let sweepChartFile = "detection-sweep.svg"

    /// Whether two configs get a paired comparison in the report: any two outside a sweep, and each sweep set without
    /// and with its priors (the sets themselves differ by construction; the sweep table compares them).
    static func compared(_ first: String, _ second: String) -> Bool {
        switch (DetectionSweep.set(ofConfig: first), DetectionSweep.set(ofConfig: second)) {
        case (nil, nil): true
        case let (a?, b?): a.set == b.set
        default: false
        }
    }

    /// One point per sweep set (empty without a sweep).
    package var sweep: [SweepPoint] {
        let splits = Dictionary(candidateSetSplits.map { ($0.config, $0) }, uniquingKeysWith: { first, _ in first })
        func inside(_ config: String) -> (n: Int, correct: Int)? {
            if let split = splits[config] { return (split.inside, split.insideCorrect) }
            return metrics(config: config).map { ($0.n, $0.correct) }
        }
        let sets = configs.filter { DetectionSweep.set(ofConfig: $0.name).map { !$0.priors } ?? false }
        // The languages every set holds (a set without a constraint holds them all): their items are inside every set.
        let common = sets.compactMap(\.resolvedCandidates).reduce(nil as Set<String>?) { kept, set in kept.map { $0.intersection(set) } ?? Set(set) }
        func commonTally(_ config: String) -> (n: Int, correct: Int)? {
            guard let common else { return nil }
            let slices = common.compactMap { metrics(config: config, slice: SliceKey.lang($0).description) }
            return slices.isEmpty ? nil : (slices.map(\.n).reduce(0, +), slices.map(\.correct).reduce(0, +))
        }
        return sets.compactMap { config -> SweepPoint? in
            guard let (set, _) = DetectionSweep.set(ofConfig: config.name), let plain = inside(config.name) else { return nil }
            var point = SweepPoint(set: set, candidates: config.resolvedCandidates?.count, inside: plain.n,
                                   accuracy: plain.n > 0 ? Double(plain.correct) / Double(plain.n) : 0,
                                   ci: Statistics.wilson(successes: plain.correct, trials: plain.n))
            if let withPriors = inside(config.name + DetectionSweep.priorsSuffix) {
                point.priorsAccuracy = withPriors.n > 0 ? Double(withPriors.correct) / Double(withPriors.n) : 0
                point.priorsCI = Statistics.wilson(successes: withPriors.correct, trials: withPriors.n)
            }
            if let kept = commonTally(config.name), kept.n > 0 {
                point.common = kept.n
                point.commonAccuracy = Double(kept.correct) / Double(kept.n)
                point.commonCI = Statistics.wilson(successes: kept.correct, trials: kept.n)
                if let withPriors = commonTally(config.name + DetectionSweep.priorsSuffix), withPriors.n > 0 {
                    point.priorsCommonAccuracy = Double(withPriors.correct) / Double(withPriors.n)
                }
            }
            return point
        }
    }

    package var sweepTable: ReportTable {
        var table = ReportTable(title: "Accuracy against candidate-set size", columns: [
            .init("set"), .init("candidates"), .numeric("inside_n", title: "items in the set"), .numeric("accuracy_pct", title: "accuracy %"),
            .init("ci95", title: "95% CI"), .numeric("priors_accuracy_pct", title: "with priors %"), .init("priors_ci95", title: "95% CI"),
            .numeric("common_accuracy_pct", title: "items every set keeps %"), .init("common_ci95", title: "95% CI"),
            .numeric("priors_common_accuracy_pct", title: "those, with priors %"),
        ])
        for point in sweep {
            table.append([.text(point.set), .text(point.candidates.map(String.init) ?? "all"), .int(point.inside), .percent(point.accuracy),
                          .text(Self.percentInterval(point.ci)), point.priorsAccuracy.map { .percent($0) } ?? .empty,
                          point.priorsCI.map { .text(Self.percentInterval($0)) } ?? .empty,
                          point.commonAccuracy.map { .percent($0) } ?? .empty, point.commonCI.map { .text(Self.percentInterval($0)) } ?? .empty,
                          point.priorsCommonAccuracy.map { .percent($0) } ?? .empty])
        }
        return table
    }

    /// Accuracy inside each set, without and with priors, sets in sweep order.
    package var sweepChart: String? {
        let points = sweep
        guard !points.isEmpty else { return nil }
        let groups = points.map { point in
            SVGBarChart.Group(label: "\(point.set) (\(point.candidates.map(String.init) ?? "all"))",
                              values: [point.accuracy * 100, point.priorsAccuracy.map { $0 * 100 }])
        }
        return SVGBarChart(title: "Accuracy inside the candidate set, by set size", unit: "%", series: ["without priors", "with priors"],
                           groups: groups, maximum: 100).render()
    }

    /// The sweep's table with what it says, for detection.md; empty without a sweep.
    package var sweepMarkdown: String {
        guard !sweep.isEmpty else { return "" }
        return MarkdownWriter.render(sweepTable) + "\n![Accuracy against candidate-set size](\(Self.sweepChartFile))\n\n"
            + "Accuracy over the items whose language is in each set (`sweep-<set>` configs), without and with the sweep's `hints` "
            + "as priors: what widening or narrowing the candidate set costs the items it keeps. Items outside a set are wrong by "
            + "construction and counted in the candidate-set table above. The sets hold different items, so their accuracies are "
            + "compared on the last columns: the items whose language is in every set\(sweep.first?.common.map { " (\($0))" } ?? "").\n\n"
    }
}

extension DetectionReport {
    /// The configs every table but the sweep's shows: the suite's own, without the sweep's generated ones (which the
    /// sweep table and chart show, and which often repeat a suite config row for row).
    package var primaryConfigs: [ConfigEcho] {
        let own = configs.filter { DetectionSweep.set(ofConfig: $0.name) == nil }
        return own.isEmpty ? configs : own
    }

    /// The config the app ships (the seed architecture's, `constrained+priors`) when the run has it, else the last of the
    /// suite's own: the one the Cyrillic heatmap shows.
    package var shippedConfig: ConfigEcho? {
        primaryConfigs.first { $0.name == DetectionConfig.seedArchitecture().name } ?? primaryConfigs.last
    }
}
