@testable import Support
import Checks
@testable import Detection
import Foundation
@testable import Generation
import GenerationTestSupport
@testable import Suite
@testable import Comparison
@testable import Provenance
import TestSupport
import Testing

/// Whether a run's machine stayed steady, shaped like the measured thrashing run: another process kept both
/// cores busy, llama-server's two threads collapsed, the calibration's start requests generated 16 tokens in
/// 22–35 s (0.45–0.68 tokens/s) against about 0.25 s at the end (about 65 tokens/s).
struct MachineSteadinessTests {
    static func calibration(start: [Double], end: [Double]) -> MachineCalibration {
        CalibrationConsistencyTests.calibration(start: start, end: end)
    }

    static let thrashed = calibration(start: [23_500, 35_400, 22_100], end: [250, 245, 260])
    static let quiet = calibration(start: [440, 439, 440], end: [481, 484, 505])

    /// The fixture records with the generation speed of every `every`-th record at `slow` tokens/s, the rest at 60.
    static func records(slowEvery every: Int, slow: Double = 0.5) throws -> [GenerationRecord] {
        try GenerationFixtures.records("base").enumerated().map { index, record in
            var changed = record
            changed.generateTokensPerSecond = record.generateTokensPerSecond.map { _ in index % every == 0 ? slow : 60 }
            return changed
        }
    }

    static func report(calibration: MachineCalibration?, records: [GenerationRecord]) -> GenerationReport {
        var provenance = GenerationFixtures.provenance("run")
        provenance.calibration = calibration
        return GenerationReport(records: records, settings: GenerationFixtures.settings, warmupRuns: 4, provenance: provenance)
    }

    @Test func theMeasuredThrashingCalibrationIsUnsteady() throws {
        let check = MachineSteadiness(calibration: Self.thrashed, records: try GenerationFixtures.records("base"))
        #expect(!check.isSteady)
        #expect(check.reasons == ["the machine calibration's samples span ×144.49 (245–35400 ms; start median 23500 ms, end median 250 ms), beyond ×1.50"])
        #expect(check.slowRequests == 0)
    }

    @Test func aFewCollapsedRequestsAmongNormalOnesAreUnsteady() throws {
        // One in ten requests at 0.5 tokens/s among 60: 10% collapsed, beyond the 5% a steady machine stays within.
        let check = MachineSteadiness(calibration: Self.quiet, records: try Self.records(slowEvery: 10))
        #expect(!check.isSteady)
        #expect(check.medianTokensPerSecond == 60 && check.slowestTokensPerSecond == 0.5)
        #expect(check.reasons.count == 1)
        #expect(check.reasons[0].hasPrefix("\(check.slowRequests) of \(check.requests) requests generated below 25% of the run's median 60.0 tokens/s (slowest 0.50 tokens/s), more than 5%"))
        // One in 50 is within the share; reply-length noise (a third slower) is never a collapse.
        #expect(MachineSteadiness(calibration: Self.quiet, records: try Self.records(slowEvery: 50)).isSteady)
        #expect(MachineSteadiness(calibration: Self.quiet, records: try Self.records(slowEvery: 2, slow: 40)).slowRequests == 0)
    }

    @Test func aCalibrationThatDriftedBetweenStartAndEndIsUnsteady() {
        // Within ×1.5 of each other, but the end is ×1.40 the start: the machine changed speed beyond the ×1.25 margin.
        let check = MachineSteadiness(calibration: Self.calibration(start: [400, 400, 400], end: [560, 560, 560]), records: [])
        #expect(check.reasons == ["the machine calibration went from 400 ms at the start to 560 ms at the end (×1.40), beyond ×1.25"])
    }

    @Test func theFixtureRunsAndTheCommittedBaselineCalibrationAreSteady() throws {
        for name in ["base", "current"] {
            let check = MachineSteadiness(calibration: Self.quiet, records: try GenerationFixtures.records(name))
            #expect(check.isSteady, "\(check.reasons)")
            #expect(check.requests > 50 && check.slowRequests == 0)
        }
        #expect(MachineSteadiness(calibration: nil, records: try GenerationFixtures.records("base")).isSteady)
    }

    @Test func anUnsteadyRunSaysSoOnceAtTheTopOfItsReportsAndInTheJSON() throws {
        let report = Self.report(calibration: Self.thrashed, records: try GenerationFixtures.records("base"))
        #expect(report.machineSteady == false)
        let markdown = report.markdown
        #expect(markdown.hasPrefix("# Reply generation: direct vs pivot\n\n**⚠️ Machine unsteady during this run: the machine calibration's samples span ×144.49"))
        #expect(markdown.components(separatedBy: "**⚠️").count == 2, "one warning, not two")
        let json = try JSONOutput.encode(report)
        #expect(json.contains(#""machine_steady" : false"#) && json.contains(#""slow_fraction" : 0.25"#))
        let suite = SuiteReport(runID: "thrashed", shard: nil, provenance: report.provenance, detection: nil, generation: report, files: [])
        #expect(suite.markdown.hasPrefix("# LangBench run `thrashed`\n\n**⚠️ Machine unsteady during this run:"))
        #expect(suite.markdown.components(separatedBy: "**⚠️").count == 2)
        #expect(try JSONOutput.encode(suite).contains(#""machine_steady" : false"#))

        let steady = Self.report(calibration: Self.quiet, records: try GenerationFixtures.records("base"))
        #expect(steady.machineSteady == true && !steady.markdown.contains("⚠️ Machine"))
        #expect(try JSONOutput.encode(steady).contains(#""machine_steady" : true"#))
    }

    static func run(_ name: String, calibration: MachineCalibration, records: [GenerationRecord], slower: Double = 1) throws -> RunResults {
        try CalibrationConsistencyTests.run(name, calibration: calibration, slower: slower, records: records)
    }

    /// A base without calibration is refused for calibrated latency before the current run's steadiness is
    /// judged: the refusal is a fact of the inputs, the same on any machine.
    @Test func aMissingCalibrationIsRefusedBeforeSteadinessIsJudged() throws {
        var base = try Self.run("old", calibration: Self.quiet, records: try GenerationFixtures.records("base"))
        base.generation?.provenance.calibration = nil
        let drifted = Self.calibration(start: [400, 400, 400], end: [560, 560, 560])
        let current = try Self.run("drifted", calibration: drifted, records: try GenerationFixtures.records("base"))
        #expect(throws: MachineComparabilityError.missingCalibration(base: true, current: false)) {
            try Comparison(base: base, current: current, thresholds: .default, latency: .calibrated)
        }
    }

    @Test(arguments: [LatencyBasis.sameRunner, .calibrated])
    func compareDoesNotJudgeTheLatencyOfAnUnsteadyRunAndSaysSoAtTheTop(basis: LatencyBasis) throws {
        let base = try Self.run("quiet", calibration: Self.quiet, records: try GenerationFixtures.records("base"))
        // Twice as slow, on a thrashing machine: neither a latency regression nor a latency pass.
        let current = try Self.run("thrashed", calibration: Self.thrashed, records: try Self.records(slowEvery: 10), slower: 2)
        let comparison = try Comparison(base: base, current: current, thresholds: .default, latency: basis)
        #expect(!comparison.checks.contains { Comparison.latencyMetrics.contains($0.metric) })
        #expect(comparison.checks.contains { $0.metric == "generation.served_in_own_language" })
        #expect(comparison.checks.contains { $0.metric == "generation.tokens_generated" })
        #expect(comparison.checks.contains { $0.metric == "generation.fallback_rate" })
        let notJudged = try #require(comparison.latencyNotJudged)
        #expect(notJudged.runs == ["current"])
        #expect(notJudged.metrics == ["generation.latency", MetricName.slowestTenth, "generation.tpot", "generation.ttft"])
        #expect(comparison.notes.contains(notJudged.note))
        #expect(notJudged.note.hasPrefix("⚠️ latency NOT JUDGED (neither passed nor failed): the machine was unsteady during the current run (the current run: "
            + "the machine calibration's samples span ×144.49"))
        #expect(notJudged.note.contains("requests generated below 25% of the run's median 60.0 tokens/s"))
        let lines = comparison.markdown.components(separatedBy: "\n")
        #expect(lines[0] == "## ⚠️ LangBench: no regression in the checks judged; latency not judged" && lines[2].hasPrefix("**⚠️ latency NOT JUDGED"),
                "\(lines.prefix(3))")
        #expect(comparison.markdown.components(separatedBy: "latency NOT JUDGED").count == 2, "the note once")
        #expect(comparison.json.contains(#""latency_not_judged" : {"#) && comparison.json.contains(#""runs" : ["#))
        #expect(comparison.junit.contains(#"<testcase classname="generation.latency" name="not judged: machine unsteady">"#))
        #expect(comparison.junit.contains("<skipped message=\"⚠️ latency NOT JUDGED"))
    }

    /// The page opens with the warning report.md opens with: a loaded run's latency is not read as the code's.
    @Test func anUnsteadyRunsPageOpensWithTheWarning() throws {
        let current = try #require(try Self.run("thrashed", calibration: Self.thrashed, records: try Self.records(slowEvery: 10), slower: 2).generation)
        let sentence = try #require(current.machineSteadiness?.sentence).replacingOccurrences(of: "`", with: "")
        let html = RunPage.render(detection: nil, results: [], generation: current, replies: [:], texts: ItemTexts(), runID: "loaded")
        let warning = try #require(html.range(of: "<p><strong>⚠ " + ReportText.html(sentence) + "</strong></p>"), "no warning on the page")
        let headline = try #require(html.range(of: "<section class=\"headline\""))
        #expect(warning.lowerBound < headline.lowerBound, "the warning comes before the headline")
    }

    /// A changed server beside an unsteady run: the note names the run that was unsteady (not the base, which only
    /// shares the change) and asks for both remedies, since a quiet machine alone would not judge a changed server.
    @Test func anUnsteadyRunBesideAChangedServerIsNamedAndBothRemediesSaid() throws {
        let base = try #require(try Self.run("quiet", calibration: Self.quiet, records: try GenerationFixtures.records("base")).generation)
        let current = try #require(try Self.run("thrashed", calibration: Self.thrashed, records: try Self.records(slowEvery: 10), slower: 2).generation)
        let changed = EnvironmentDifference(name: "llama.cpp build", base: "b1", current: "b2", effect: .serverSpeed)
        let notJudged = try #require(LatencyNotJudged(base: base, current: current, basis: .calibrated, environment: [changed]))
        #expect(notJudged.runs == ["base", "current"])
        #expect(notJudged.note.contains("the machine was unsteady during the current run ("), "\(notJudged.note)")
        #expect(notJudged.note.hasSuffix("measure both builds or settings on one runner (`--latency same-runner`) and re-run on a quiet machine to judge latency."),
                "\(notJudged.note)")
    }

    /// Same-runner, a calibration that drifted (no request collapsed) is context: both sides were measured together, so
    /// the drift is in both and in the block interval. Latency is judged and the drift said; calibrated, it is not judged.
    @Test func sameRunnerDriftIsContextNotARefusal() throws {
        let base = try Self.run("quiet", calibration: Self.quiet, records: try GenerationFixtures.records("base"))
        let drifted = Self.calibration(start: [400, 405, 398], end: [600, 610, 590])
        let current = try Self.run("drifted", calibration: drifted, records: try GenerationFixtures.records("base"))
        #expect(!MachineSteadiness(current.generation!).isSteady && !MachineSteadiness(current.generation!).collapsed)
        let sameRunner = try Comparison(base: base, current: current, thresholds: .default, latency: .sameRunner)
        #expect(sameRunner.latencyNotJudged == nil && sameRunner.checks.contains { $0.metric == "generation.latency" })
        #expect(sameRunner.notes.contains { $0.hasPrefix("context, not a refusal: the current run's machine drifted (") }, "\(sameRunner.notes)")
        let calibrated = try Comparison(base: base, current: current, thresholds: .default, latency: .calibrated)
        #expect(calibrated.latencyNotJudged != nil)
    }

    @Test func bothRunsSteadyJudgeLatencyAsBefore() throws {
        let comparison = try Comparison(base: try Self.run("quiet", calibration: Self.quiet, records: try GenerationFixtures.records("base")),
                                        current: try Self.run("slow", calibration: Self.quiet, records: try GenerationFixtures.records("base"), slower: 2),
                                        thresholds: .default, latency: .sameRunner)
        #expect(comparison.latencyNotJudged == nil)
        #expect(comparison.regressions.contains { $0.metric == "generation.latency" })
        #expect(comparison.json.contains(#""latency_not_judged" : null"#))
        #expect(!comparison.junit.contains("<skipped"))
    }
}
