import Checks
@testable import Detection
import Foundation
@testable import Generation
import GenerationTestSupport
@testable import Suite
@testable import Comparison
@testable import Provenance
import Testing

/// Calibration per component: TTFT scaled by the prompt-processing ratio, TPOT by the generation ratio and
/// each item's total by its own mix, so a machine whose prompt processing and generation differ by other
/// factors reads as no change, and the margin is checked per component.
struct ComponentCalibrationTests {
    /// A calibration whose fixed request is 40% prompt processing, prompt and generation slowed by the factors.
    static func calibration(prompt: Double = 1, generation: Double = 1) -> MachineCalibration {
        let ms: [Double] = [500, 505, 495, 502, 498, 500]
        return MachineCalibration(threads: 2, samples: ms.enumerated().map { index, ms in
            MachineCalibration.Sample(phase: index < 3 ? "start" : "end", promptTokens: 60, promptMs: ms * 0.4 * prompt,
                                      generatedTokens: 16, generationMs: ms * 0.6 * generation)
        })
    }

    /// `record` as measured on a machine whose prompt processing takes `prompt` and generation `generation`
    /// times as long (other time by the fixed request's mix), then `slower` times as long overall.
    static func throttled(_ record: GenerationRecord, prompt: Double, generation: Double, slower: Double = 1) -> GenerationRecord {
        let other = 0.4 * prompt + 0.6 * generation
        func scaled(_ mix: LatencyMix) -> Double { slower * (mix.prompt * prompt + mix.generation * generation + mix.other * other) }
        var result = record
        result.totalMs = scaled(LatencyMix.total(record))
        result.ttftMs = record.ttftMs.map { _ in scaled(LatencyMix.ttft(record)) }
        result.tpotMs = record.tpotMs.map { $0 * generation * slower }
        func stage(_ timing: StageTiming?) -> StageTiming? {
            guard var timing, let ttft = timing.ttftMs else { return timing }
            timing.ttftMs = ttft * prompt * slower
            timing.ms = (ttft * prompt + (timing.ms - ttft) * generation) * slower
            return timing
        }
        result.translateIn = stage(record.translateIn)
        result.generate = stage(record.generate)
        result.translateOut = stage(record.translateOut)
        return result
    }

    static func comparison(prompt: Double, generation: Double, slower: Double = 1, basis: LatencyBasis = .calibrated,
                           thresholds: Thresholds = .default) throws -> Comparison {
        let records = try GenerationFixtures.records("base")
        let base = try CalibrationConsistencyTests.run("base", calibration: calibration())
        let current = try CalibrationConsistencyTests.run("current", calibration: calibration(prompt: prompt, generation: generation),
                                                          records: records.map { throttled($0, prompt: prompt, generation: generation, slower: slower) })
        return try Comparison(base: base, current: current, thresholds: thresholds, latency: basis)
    }

    static func check(_ comparison: Comparison, _ metric: String, route: String = "pivot") throws -> MetricCheck {
        try #require(comparison.checks.first { $0.metric == metric && $0.key == CheckKey([.route: "\(route)"]) })
    }

    @Test func aPivotRecordSplitsAtEachRequestsFirstToken() throws {
        let record = try #require(try GenerationFixtures.records("base").first { $0.itemID == "cp-bg-01" && $0.route == .pivot })
        // translate-in 132 ms (first token at 30), generate 143.5 (25.4), translate-out 150 (32); total 426.4, TTFT 308.1.
        let total = LatencyMix.total(record), ttft = LatencyMix.ttft(record)
        #expect(abs(total.prompt - 87.4) < 1e-9 && abs(total.generation - 338.1) < 1e-9 && abs(total.other - 0.9) < 1e-9)
        #expect(abs(total.total - record.totalMs) < 1e-9)
        #expect(abs(ttft.prompt - 87.4) < 1e-9 && abs(ttft.generation - 220.1) < 1e-9 && abs(ttft.other - 0.6) < 1e-9)
        #expect(abs(ttft.total - 308.1) < 1e-9)
    }

    @Test func aMachineWhosePromptProcessingAloneIsSlowerReadsAsNoChange() throws {
        let comparison = try Self.comparison(prompt: 1.2, generation: 1)
        for route in ["direct", "pivot"] {
            for metric in ["generation.latency", "generation.ttft", "generation.tpot", MetricName.slowestTenth] {
                let check = try Self.check(comparison, metric, route: route)
                #expect(abs(check.delta) < 0.01, "\(metric) \(route): \(check.delta)")
                #expect(check.status == .unchanged, "\(metric) \(route)")
            }
        }
        // One factor for everything (the fixed request's, ×1.08) reads the TTFT, mostly prompt, as slower than it is.
        let raw = try Self.check(try Self.comparison(prompt: 1.2, generation: 1, basis: .sameRunner), "generation.ttft", route: "direct")
        let request = 0.4 * 1.2 + 0.6
        #expect((1 + raw.delta) / request - 1 > 0.09)
        #expect(comparison.notes.contains { $0.contains("prompt processing ×1.20") && $0.contains("generation ×1.00") })
    }

    @Test func aTrueSlowdownOnAnImbalancedMachineIsStillARegression() throws {
        let comparison = try Self.comparison(prompt: 1.2, generation: 0.9, slower: 1.3)
        let total = try Self.check(comparison, "generation.latency")
        #expect(abs(total.delta - 0.3) < 0.01)
        #expect(total.status == .regression)
        #expect(total.rule.contains("each item's machine factor from its own mix"))
    }

    @Test func theMarginIsCheckedPerComponent() throws {
        // Prompt ×1.4 and generation ×1.0: the whole fixed request is ×1.16, inside the margin; prompt processing is not.
        #expect {
            _ = try Self.comparison(prompt: 1.4, generation: 1)
        } throws: { error in
            "\(error)".hasPrefix("latency not comparable: the machine calibrations differ by ×1.40 in prompt processing, beyond the ×1.25 margin")
        }
    }

    @Test func aWiderMarginFromTheThresholdsScalesWhatTheDefaultRefuses() throws {
        var wide = Thresholds.default
        wide.calibrationMargin = 1.5
        let comparison = try Self.comparison(prompt: 1.4, generation: 1, thresholds: wide)
        #expect(abs(try Self.check(comparison, "generation.ttft").delta) < 0.01)
        #expect(comparison.notes.contains { $0.contains("prompt processing ×1.40") })
        wide.calibrationMargin = 1.3
        #expect {
            _ = try Self.comparison(prompt: 1.4, generation: 1, thresholds: wide)
        } throws: { error in
            "\(error)".contains("beyond the ×1.30 margin")
        }
    }

    @Test func oneMachineIsTheIdentity() throws {
        let (adjustment, _) = try MachineAdjustment.resolve(base: Self.calibration(), current: Self.calibration(), basis: .calibrated)
        let machine = try #require(adjustment)
        for mix in [LatencyMix.tpot, LatencyMix(prompt: 2, generation: 1, other: 1)] {
            #expect(abs(machine.factor(mix) - 1) < 1e-12)
        }
    }
}
