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

/// Whether a machine calibration agrees with itself, and what an inconsistent one does to `compare`.
/// The sample figures are those measured on a real run whose machine was loaded during part of it.
struct CalibrationConsistencyTests {
    /// A calibration of `start` and `end` samples (milliseconds of the fixed request).
    static func calibration(start: [Double], end: [Double]) -> MachineCalibration {
        let samples = [("start", start), ("end", end)].flatMap { phase, values in
            values.map { MachineCalibration.Sample(phase: phase, promptTokens: 60, promptMs: $0 * 0.4, generatedTokens: 16, generationMs: $0 * 0.6) }
        }
        return MachineCalibration(threads: 2, samples: samples)
    }

    /// A quiet machine: 399 ms median.
    static let quiet = calibration(start: [399, 402, 396], end: [400, 398, 399])
    /// Eight busy processes in the run's first minute: 449 ms median, samples 0.40–16.7 s.
    static let loaded = calibration(start: [16_700, 3_200, 452], end: [446, 420, 400])

    /// A calibration no machine could measure (none, 0 ms, negative, not a number) is damaged, not unsteady: no
    /// ×inf or nan figure, a sentence saying so, and a report that encodes.
    @Test(arguments: [([Double](), [Double](), "samples: none"), ([0, 0, 0], [400, 401, 399], "samples: 3 of 6 are 0 ms, negative or not a number"),
                      ([-500, 400, 400], [400, 401, 399], "samples: 1 of 6 are 0 ms, negative or not a number"),
                      ([.nan, 400, 400], [400, 401, 399], "samples: 1 of 6 are 0 ms, negative or not a number")])
    func aDamagedCalibrationIsCalledDamaged(start: [Double], end: [Double], figures: String) throws {
        let calibration = Self.calibration(start: start, end: end)
        let check = CalibrationConsistency(calibration)
        #expect(check.verdict == .damaged && check.figures == figures)
        #expect(check.sentence.hasPrefix("⚠️ Machine calibration damaged (\(figures)): no request takes that time"))
        #expect(!check.sentence.contains("inf") && !check.sentence.contains("nan"))
        let steadiness = MachineSteadiness(calibration: calibration, records: [])
        #expect(steadiness.reasons == ["the machine calibration is damaged, not unsteady (\(figures)): no request takes that time"])
        _ = try JSONOutput.encode(check)
    }

    @Test(arguments: [
        // Start 13.5 / 14.2 / 1.5 s, end about 0.45 s: "995 ms median (412–14187)" and no warning.
        ([13_500, 14_187, 1_500], [412, 450, 460], CalibrationConsistency.Verdict.inconsistent, "samples span ×34.43 (412–14187 ms; start median 13500 ms, end median 450 ms)"),
        ([16_700, 3_200, 452], [446, 420, 400], .inconsistent, "samples span ×41.75 (400–16700 ms; start median 3200 ms, end median 420 ms)"),
        // Two busy processes on the 2 cores: 4.4×.
        ([1_980, 2_000, 1_950], [455, 450, 460], .inconsistent, "samples span ×4.44 (450–2000 ms; start median 1980 ms, end median 455 ms)"),
        // The committed baseline: a steady machine.
        ([440, 439, 440], [481, 484, 505], .consistent, "samples span ×1.15 (439–505 ms; start median 440 ms, end median 484 ms)"),
    ])
    func measuredCalibrationsAreJudged(start: [Double], end: [Double], verdict: CalibrationConsistency.Verdict, figures: String) {
        let check = CalibrationConsistency(Self.calibration(start: start, end: end))
        #expect(check.verdict == verdict)
        #expect(check.figures == figures)
        #expect(check.spreadRatio == check.maxMs.flatMap { slowest in check.minMs.map { slowest / $0 } })
        #expect(check.maxSpreadRatio == CalibrationConsistency.maxSpreadRatio)
        #expect(check.sentence.hasPrefix(verdict == .consistent ? "Machine calibration consistent" : "⚠️ Machine calibration inconsistent"))
    }

    @Test func theVerdictIsInTheJSONWithItsFigures() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = String(decoding: try encoder.encode(CalibrationConsistency(Self.loaded)), as: UTF8.self)
        #expect(json == #"{"end_median_ms":420,"max_ms":16700,"max_spread_ratio":1.5,"min_ms":400,"spread_ratio":41.75,"start_median_ms":3200,"verdict":"inconsistent"}"#)
    }

    /// A damaged calibration leaves latency unjudged as damaged: the note never calls the machine unsteady.
    @Test func compareCallsADamagedCalibrationDamagedNotAnUnsteadyMachine() throws {
        let base = try Self.run("base", calibration: Self.quiet), current = try Self.run("current", calibration: Self.calibration(start: [0, 0, 0], end: [400, 401, 399]))
        let comparison = try Comparison(base: base, current: current, thresholds: .default, latency: .sameRunner)
        let note = try #require(comparison.latencyNotJudged?.note)
        #expect(note.contains("damaged, not unsteady") && note.contains("the report was edited or the clock failed"), "\(note)")
        #expect(!note.contains("the machine was unsteady"), "\(note)")
    }

    @Test func noSampleIsNoYardstick() {
        #expect(CalibrationConsistency(MachineCalibration(threads: nil, samples: [])).verdict == .damaged)
    }

    /// The base fixture run (or `records`), `slower` times as slow, with `calibration` in its provenance.
    static func run(_ name: String, calibration: MachineCalibration, slower: Double = 1, records: [GenerationRecord]? = nil) throws -> RunResults {
        let records = try (records ?? GenerationFixtures.records("base")).map { record in
            var slowed = record
            slowed.totalMs *= slower
            slowed.ttftMs = record.ttftMs.map { $0 * slower }
            slowed.tpotMs = record.tpotMs.map { $0 * slower }
            return slowed
        }
        var provenance = GenerationFixtures.provenance(name)
        provenance.calibration = calibration
        return RunResults(path: name, detection: nil,
                          generation: GenerationReport(records: records, settings: GenerationFixtures.settings, warmupRuns: 4, provenance: provenance))
    }

    @Test func aDoubledRunWhoseCalibrationWasLoadedHasItsLatencyNotJudgedNamingTheSpread() throws {
        let base = try Self.run("quiet", calibration: Self.quiet)
        let slowed = try Self.run("loaded", calibration: Self.loaded, slower: 2)
        // The medians (399 vs 449 ms) are inside the ×1.25 margin: only the spread tells.
        #expect(abs(Self.loaded.medianMs / Self.quiet.medianMs - 449.0 / 399) < 1e-9)
        // Calibrated, its interval would widen the threshold until the doubling passes: latency is not judged, and the
        // note names the run and the spread; a loaded base the same way.
        let comparison = try Comparison(base: base, current: slowed, thresholds: .default, latency: .calibrated)
        #expect(!comparison.checks.contains { Comparison.latencyMetrics.contains($0.metric) })
        #expect(comparison.latencyNotJudged?.runs == ["current"])
        #expect(comparison.notes.contains { $0.contains("the current run: the machine calibration's samples span ×41.75 (400–16700 ms;") && $0.contains("beyond ×1.50") })
        // Same-runner, nothing is scaled by the calibration: the spread is context, and the doubling is a regression.
        let sameRunner = try Comparison(base: base, current: slowed, thresholds: .default, latency: .sameRunner)
        #expect(sameRunner.latencyNotJudged == nil)
        #expect(sameRunner.regressions.contains { $0.metric == "generation.latency" })
        #expect(sameRunner.notes.contains { $0.hasPrefix("context, not a refusal: the current run's machine drifted (the machine calibration's samples span ×41.75") })
        let loadedBase = try Comparison(base: try Self.run("loaded", calibration: Self.loaded), current: try Self.run("quiet", calibration: Self.quiet),
                                        thresholds: .default, latency: .calibrated)
        #expect(loadedBase.latencyNotJudged?.runs == ["base"])
        // The calibration's own verdict still refuses it as a yardstick when asked directly.
        #expect(throws: MachineComparabilityError.inconsistentCalibration(base: CalibrationConsistency(Self.loaded), current: nil)) {
            try MachineAdjustment.resolve(base: Self.loaded, current: Self.quiet, basis: .calibrated)
        }
        // With latency skipped there is nothing to withhold.
        let skipped = try Comparison(base: base, current: slowed, thresholds: .default, latency: .skip)
        #expect(!skipped.checks.contains { Comparison.latencyMetrics.contains($0.metric) } && skipped.latencyNotJudged == nil)
    }

    @Test func theSameSlowdownWithAConsistentCalibrationIsARegressionAsBefore() throws {
        let steady = Self.calibration(start: [452, 446, 449], end: [450, 448, 447])
        let comparison = try Comparison(base: try Self.run("quiet", calibration: Self.quiet), current: try Self.run("steady", calibration: steady, slower: 2),
                                        thresholds: .default, latency: .calibrated)
        #expect(comparison.notes.contains { $0.hasPrefix("latency calibrated per component: CURRENT/BASE fixed request ×1.12") })
        let latency = try #require(comparison.checks.first { $0.metric == "generation.latency" && $0.key == CheckKey([.route: "direct"]) })
        #expect(latency.status == .regression)
        #expect(comparison.verdict == "regression")
    }

    @Test func aGenerationReportCarriesTheVerdictAndWarnsWhenInconsistent() throws {
        var provenance = GenerationFixtures.provenance("loaded")
        provenance.calibration = Self.loaded
        let report = GenerationReport(records: try GenerationFixtures.records("base"), settings: GenerationFixtures.settings, warmupRuns: 4, provenance: provenance)
        #expect(report.calibrationConsistency == CalibrationConsistency(Self.loaded))
        #expect(report.markdown.contains("**⚠️ Machine unsteady during this run: the machine calibration's samples span ×41.75 (400–16700 ms; start median 3200 ms, end median 420 ms)"))
        #expect(report.markdown.contains("⚠️ Machine calibration inconsistent: its samples span ×41.75"), "the footer's figures")
        let suite = SuiteReport(runID: "loaded", shard: nil, provenance: provenance, detection: nil, generation: report, files: [])
        #expect(suite.markdown.contains("**⚠️ Machine unsteady during this run"))
        #expect(try JSONOutput.encode(suite).contains(#""verdict" : "inconsistent""#))
        provenance.calibration = Self.quiet
        let steady = GenerationReport(records: try GenerationFixtures.records("base"), settings: GenerationFixtures.settings, warmupRuns: 4, provenance: provenance)
        #expect(!steady.markdown.contains("⚠️ Machine"))
        #expect(steady.markdown.contains("Machine calibration consistent: its samples span ×1.02"))
    }
}
