import Support
import Corpus

/// A constrained config answers two questions at once: how well it tells its candidates apart, and where the
/// items of every other language go (wrong by construction, pushed into a candidate). The report keeps them apart.
extension DetectionReport {
    /// A constrained config's items split by whether their true language is one of its candidates.
    package struct CandidateSetSplit: Sendable, Hashable, Codable {
        /// Items of one language outside the set that a candidate took, e.g. 178 `mk` items called `ru`.
        package struct Absorbed: Sendable, Hashable, Codable {
            package var lang: String
            package var predicted: String
            package var count: Int
        }

        package var config: String
        package var candidates: Int
        /// Items whose true language is a candidate (locale-equivalent), how many of them are right, and the Wilson interval.
        package var inside: Int
        package var insideCorrect: Int
        package var insideCI: Statistics.Interval
        /// Items whose true language is not a candidate, and where they went, largest first.
        package var outside: Int
        package var absorbed: [Absorbed]

        package var insideAccuracy: Double { inside > 0 ? Double(insideCorrect) / Double(inside) : 0 }

        enum CodingKeys: String, CodingKey {
            case config, candidates, inside, insideCorrect = "inside_correct", insideCI = "inside_ci95", outside, absorbed
        }
    }

    /// One split per config with a candidate set, from the per-language slices and the confusion counts.
    package var candidateSetSplits: [CandidateSetSplit] {
        configs.compactMap { config in
            guard let candidates = config.resolvedCandidates?.map(LanguageCode.init(normalised:)) else { return nil }
            var split = CandidateSetSplit(config: config.name, candidates: candidates.count, inside: 0, insideCorrect: 0,
                                          insideCI: .init(low: 0, high: 0), outside: 0, absorbed: [])
            let matrix = confusion[config.name]
            for slice in slices where slice.config == config.name {
                guard let code = SliceKey(slice.slice)?.language else { continue }
                let lang = LanguageCode(normalised: code)
                if candidates.contains(where: { $0.isEquivalent(to: lang) }) {
                    split.inside += slice.metrics.n
                    split.insideCorrect += slice.metrics.correct
                    continue
                }
                split.outside += slice.metrics.n
                guard let matrix, let row = matrix.rows.firstIndex(of: lang.identifier) else { continue }
                for (column, predicted) in matrix.columns.enumerated() where matrix.counts[row][column] > 0 {
                    split.absorbed.append(.init(lang: lang.identifier, predicted: predicted, count: matrix.counts[row][column]))
                }
            }
            split.absorbed.sort { ($1.count, $0.lang, $0.predicted) < ($0.count, $1.lang, $1.predicted) }
            split.insideCI = Statistics.wilson(successes: split.insideCorrect, trials: split.inside)
            return split
        }
    }

    package static let candidateSetChartFile = "detection-candidates.svg"

    /// Per constrained config (a sweep's have their own chart): accuracy over the items inside its set beside accuracy
    /// over all items, the two numbers a constrained config's headline gives.
    package var candidateSetChart: String? {
        let splits = chartedSplits
        guard !splits.isEmpty else { return nil }
        let groups = splits.map { split in
            SVGBarChart.Group(label: "\(split.config) (\(split.candidates))",
                              values: [split.insideAccuracy * 100, metrics(config: split.config).map { $0.accuracy * 100 }])
        }
        return SVGBarChart(title: "Accuracy inside the candidate set and over all items", unit: "%", series: ["inside the set", "all items"],
                           groups: groups, maximum: 100).render()
    }

    private var chartedSplits: [CandidateSetSplit] { candidateSetSplits.filter { DetectionSweep.set(ofConfig: $0.config) == nil } }

    /// The split as a table: per constrained config, accuracy inside the set and the largest absorptions outside it.
    package var candidateSetTable: ReportTable {
        var table = ReportTable(title: "Inside and outside the candidate set", columns: [
            .init("config"), .numeric("candidates"), .numeric("inside_n", title: "inside n"), .numeric("inside_accuracy_pct", title: "accuracy inside %"),
            .init("inside_ci95", title: "95% CI"), .numeric("outside_n", title: "outside n"), .init("absorbed_by", title: "absorbed by (true → predicted)"),
        ])
        for split in chartedSplits {
            let absorbed = split.absorbed.prefix(Self.absorbedListed).map { "\($0.lang) → \($0.predicted) \($0.count)" }.joined(separator: ", ")
                + (split.absorbed.count > Self.absorbedListed ? ", …" : "")
            table.append([.text(split.config), .int(split.candidates), .int(split.inside), .percent(split.insideAccuracy),
                          .text(Self.percentInterval(split.insideCI)), .int(split.outside), .text(absorbed)])
        }
        return table
    }

    /// The split table with what it says, for detection.md; empty without a constrained config.
    package var candidateSetMarkdown: String {
        guard !candidateSetSplits.isEmpty else { return "" }
        return MarkdownWriter.render(candidateSetTable) + "\nAn item whose language is not a candidate is wrong by construction: "
            + "accuracy inside the set is what the config can get right, and *absorbed by* says which candidate takes the others.\n\n"
            + (chartedSplits.isEmpty ? "" : "![Accuracy inside the candidate set and over all items](\(Self.candidateSetChartFile))\n\n")
    }

    /// Absorptions a table row lists (the largest; detection.json has all).
    static let absorbedListed = 6
}
