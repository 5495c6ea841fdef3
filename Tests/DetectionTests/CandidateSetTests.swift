import Support
@testable import Detection
import Foundation
import Corpus
import Provenance
import TestSupport
import Testing

/// A constrained config's accuracy inside its candidate set, and where the items of other languages went.
struct CandidateSetTests {
    static func report() -> DetectionReport {
        func result(_ id: String, _ gold: String, _ predicted: String) -> DetectionResult {
            DetectionMetricsTests.result(id, gold, predicted, config: "seed")
        }
        // Candidates ru, uk, and en-US for en: 4 ru (3 right), 2 uk (2 right), 1 en-GB (right: locale-equivalent);
        // outside the set 3 bg (2 called ru, 1 uk) and 2 mk (both ru).
        let constrained = [result("r1", "ru", "ru"), result("r2", "ru", "ru"),
                           result("r3", "ru", "ru"), result("r4", "ru", "uk"),
                           result("u1", "uk", "uk"), result("u2", "uk", "uk"),
                           result("e1", "en-GB", "en-US"),
                           result("b1", "bg", "ru"), result("b2", "bg", "ru"),
                           result("b3", "bg", "uk"),
                           result("m1", "mk", "ru"), result("m2", "mk", "ru")]
        let open = constrained.map { var r = $0; r.config = "open"; r.predicted = r.lang; return r }
        let echoes = [DetectionReport.ConfigEcho(name: "open", detector: "d", candidates: "none", hints: "none"),
                      DetectionReport.ConfigEcho(name: "seed", detector: "d", candidates: "ru,uk,en-US", resolvedCandidates: ["ru", "uk", "en-US"], hints: "none")]
        return DetectionReport(echoes: echoes, results: open + constrained, timings: [], provenance: Provenance(command: ["test"], corpora: []))
    }

    @Test func insideAccuracyAndAbsorptionsAreSplit() throws {
        let splits = Self.report().candidateSetSplits
        #expect(splits.map(\.config) == ["seed"], "a config without candidates has no split")
        let split = try #require(splits.first)
        #expect(split.candidates == 3 && split.inside == 7 && split.insideCorrect == 6 && split.outside == 5)
        #expect(split.insideCI == Statistics.wilson(successes: 6, trials: 7))
        #expect(split.absorbed.map { "\($0.lang)→\($0.predicted) \($0.count)" } == ["bg→ru 2", "mk→ru 2", "bg→uk 1"])
    }

    @Test func theSplitIsInTheMarkdownAndTheJSON() throws {
        let report = Self.report()
        #expect(report.markdown.contains("| seed | 3 | 7 | 85.7 |") && report.markdown.contains("bg → ru 2, mk → ru 2, bg → uk 1"),
                "\(report.markdown)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(try JSONOutput.encode(report).utf8)) as? [String: Any])
        let sets = try #require(json["candidate_sets"] as? [[String: Any]])
        #expect(sets.count == 1 && sets[0]["inside"] as? Int == 7 && sets[0]["inside_correct"] as? Int == 6 && sets[0]["outside"] as? Int == 5)
    }

    /// Both numbers as a chart: per constrained config, accuracy inside its set beside accuracy over all items.
    @Test func theChartShowsInsideAndOverallAccuracy() throws {
        let report = Self.report()
        let chart = try #require(report.candidateSetChart)
        #expect(chart.contains("seed (3)") && chart.contains("inside the set") && chart.contains("all items"))
        #expect(!chart.contains("open"), "an unconstrained config has no bar")
        #expect(report.markdown.contains("](\(DetectionReport.candidateSetChartFile))"))
        var open = report
        open.configs = [report.configs[0]]
        #expect(open.candidateSetChart == nil)
    }
}
