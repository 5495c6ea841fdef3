import Support
@testable import Detection
import Foundation
import Corpus
import Provenance
import TestSupport
import Testing

/// Accuracy against candidate-set size: a sweep declared beside the configs becomes configs with and without priors,
/// and the report gives each set's size and its accuracy inside the set.
struct DetectionSweepTests {
    @Test(arguments: [
        (#"{"sets": [{"name": "pair", "candidates": ["ru", "uk"]}], "hints": {"en": 0.5}}"#, "set 'pair' lacks en"),
        (#"{"sets": [{"name": "a b", "candidates": "none"}], "hints": {"en": 0.5}}"#, "must be letters, digits"),
        (#"{"sets": [{"name": "a", "candidates": "none"}]}"#, "must give the priors"),
        (#"{"sets": [], "hints": {"en": 0.5}}"#, "at least one set"),
        (#"{"sets": [{"name": "a", "candidates": "none"}, {"name": "a", "candidates": ["en"]}], "hints": {"en": 0.5}}"#, "set names must differ"),
    ])
    func aBadSweepIsRefusedNamingWhy(sweep: String, reason: String) throws {
        let url = try Fixture.temporaryDirectory().appendingPathComponent("configs.json")
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        try #"{"configs": [{"name": "open"}], "sweep": \#(sweep)}"#.write(to: url, atomically: true, encoding: .utf8)
        #expect { try DetectionConfigFile.load(url.path) } throws: { "\($0)".contains(reason) }
    }

    @Test func theReportGivesEachSetsSizeAndAccuracyInsideIt() throws {
        func result(_ id: String, _ gold: String, _ predicted: String, _ config: String) -> DetectionResult {
            DetectionMetricsTests.result(id, gold, predicted, config: config)
        }
        // Four ru/uk items and two bg items. The pair set gets 3 of its 4 inside right, 4 with the priors; unconstrained
        // gets 5 of 6, 6 with the priors.
        let gold = [("r1", "ru"), ("r2", "ru"), ("u1", "uk"), ("u2", "uk"), ("b1", "bg"), ("b2", "bg")]
        let answers: [String: [String]] = [
            "sweep-pair": ["ru", "uk", "uk", "uk", "ru", "ru"], "sweep-pair+priors": ["ru", "ru", "uk", "uk", "ru", "ru"],
            "sweep-all": ["ru", "ru", "uk", "ru", "bg", "bg"], "sweep-all+priors": ["ru", "ru", "uk", "uk", "bg", "bg"],
        ]
        let names = ["sweep-pair", "sweep-pair+priors", "sweep-all", "sweep-all+priors"]
        let results = names.flatMap { name in zip(gold, answers[name]!).map { result($0.0.0, $0.0.1, $0.1, name) } }
        let echoes = names.map { name in
            name.hasPrefix("sweep-pair") ? DetectionReport.ConfigEcho(name: name, detector: "d", candidates: "ru,uk", resolvedCandidates: ["ru", "uk"], hints: "none")
                : DetectionReport.ConfigEcho(name: name, detector: "d", candidates: "none", hints: "none")
        }
        let report = DetectionReport(echoes: echoes, results: results, timings: [], provenance: Provenance(command: ["test"], corpora: []))
        let points = report.sweep
        #expect(points.map(\.set) == ["pair", "all"])
        #expect(points[0].candidates == 2 && points[0].inside == 4 && points[0].accuracy == 0.75 && points[0].priorsAccuracy == 1)
        #expect(points[1].candidates == nil && points[1].inside == 6 && abs(points[1].accuracy - 5.0 / 6) < 1e-12 && points[1].priorsAccuracy == 1)
        #expect(report.markdown.contains("| pair | 2 | 4 | 75.0 |") && report.markdown.contains("| all | all | 6 | 83.3 |"), "\(report.markdown)")
        // The sets hold different items: compared on the four ru/uk items both keep, widening costs one of them (4 → 3 right).
        #expect(points.map(\.common) == [4, 4] && points.map(\.commonAccuracy) == [0.75, 0.75] && points.map(\.priorsCommonAccuracy) == [1, 1])
        #expect(report.markdown.contains("| all | all | 6 | 83.3 | 43.6–97.0 | 100.0 | 61.0–100.0 | 75.0 | 30.1–95.4 | 100.0 |"), "\(report.markdown)")
        #expect(report.sweepChart?.contains("pair (2)") == true)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(try JSONOutput.encode(report).utf8)) as? [String: Any])
        #expect((json["sweep"] as? [[String: Any]])?.map { $0["set"] as? String } == ["pair", "all"])
    }
}
