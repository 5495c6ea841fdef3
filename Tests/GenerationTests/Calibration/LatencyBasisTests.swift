@testable import Support
import Foundation
@testable import Generation
import GenerationTestSupport
import Backend
@testable import Provenance
import Testing

/// How `compare` decides whether latency from two runs may be compared, and on what scale.
struct LatencyBasisTests {
    static func calibration(_ ms: [Double], promptTokens: Int = 60) -> MachineCalibration {
        MachineCalibration(threads: 2, samples: ms.map {
            MachineCalibration.Sample(phase: "start", promptTokens: promptTokens, promptMs: $0 * 0.4, generatedTokens: 16, generationMs: $0 * 0.6)
        })
    }

    static let base = calibration([500, 510, 490, 505, 495, 500])

    @Test func calibratedScalesByTheCalibrationRatioAndWidensTheInterval() throws {
        let current = Self.calibration([600, 610, 590, 605, 595, 600])
        let (adjustment, note) = try MachineAdjustment.resolve(base: Self.base, current: current, basis: .calibrated)
        let machine = try #require(adjustment)
        // Prompt and generation slowed alike here, so every mix reads the same factor.
        for mix in [LatencyMix.tpot, LatencyMix(prompt: 1, generation: 0, other: 0), LatencyMix(prompt: 3, generation: 5, other: 2)] {
            #expect(abs(machine.factor(mix) - 1.2) < 1e-9)
            let spread = machine.relativeInterval(mix)
            #expect(spread.low <= 1 && spread.high >= 1)
        }
        #expect(note.hasPrefix("latency calibrated per component: CURRENT/BASE fixed request ×1.20"))
        #expect(note.contains("prompt processing ×1.20") && note.contains("generation ×1.20"))
    }

    @Test(arguments: [
        (LatencyBasis.calibrated, [900.0, 905, 895], "latency not comparable: the machine calibrations differ by ×1.80 in fixed request, beyond the ×1.25 margin"),
        (LatencyBasis.sameRunner, [900.0, 905, 895], "latency not comparable: the machine calibrations differ by ×1.80 in fixed request, beyond the ×1.25 margin"),
        (LatencyBasis.calibrated, [350.0, 355, 345], "latency not comparable: the machine calibrations differ by ×0.70 in fixed request, beyond the ×1.25 margin"),
    ])
    func calibrationsBeyondTheMarginAreRefused(basis: LatencyBasis, ms: [Double], message: String) {
        #expect {
            try MachineAdjustment.resolve(base: Self.base, current: Self.calibration(ms), basis: basis)
        } throws: { error in
            "\(error)".hasPrefix(message) && "\(error)".contains("base: fixed request 500 ms median")
        }
    }

    @Test func missingCalibrationIsRefusedOnlyWhenLatencyMustBeCalibrated() throws {
        #expect(throws: MachineComparabilityError.missingCalibration(base: true, current: false)) {
            try MachineAdjustment.resolve(base: nil, current: Self.base, basis: .calibrated)
        }
        #expect("\(MachineComparabilityError.missingCalibration(base: true, current: false))"
            .hasPrefix("latency not comparable: the base run has no machine calibration"))
        let (sameRunner, note) = try MachineAdjustment.resolve(base: nil, current: nil, basis: .sameRunner)
        #expect(sameRunner == .identity)
        #expect(note.contains("--latency same-runner"))
        let (skipped, _) = try MachineAdjustment.resolve(base: nil, current: nil, basis: .skip)
        #expect(skipped == nil)
    }

    @Test func sameRunnerComparesRawWhenCalibrationsAgree() throws {
        let (adjustment, note) = try MachineAdjustment.resolve(base: Self.base, current: Self.calibration([520, 515, 525]), basis: .sameRunner)
        #expect(adjustment == .identity)
        #expect(note.contains("calibrations agree: CURRENT/BASE fixed request ×1.04"))
    }

    @Test func otherServerThreadsAreTheChangeNotTheMachine() throws {
        let base = Self.calibration([400, 410, 420])
        var current = Self.calibration([800, 820, 840])
        current.threads = 1
        let (adjustment, note) = try MachineAdjustment.resolve(base: base, current: current, basis: .sameRunner)
        #expect(adjustment == .identity)
        #expect(note.contains("different server threads (2 vs 1)"))
        #expect(throws: MachineComparabilityError.self) { try MachineAdjustment.resolve(base: base, current: current, basis: .calibrated) }
    }

    @Test func anotherYardstickIsRefused() {
        #expect(throws: MachineComparabilityError.self) {
            try MachineAdjustment.resolve(base: Self.base, current: Self.calibration([500], promptTokens: 70), basis: .calibrated)
        }
    }

    @Test func mergingKeepsEverySampleAndRequiresEveryPart() {
        let merged = MachineCalibration.merged([Self.base, Self.calibration([700])])
        #expect(merged?.samples.count == 7)
        #expect(merged?.threads == 2)
        var other = Self.base
        other.version = MachineCalibration.currentVersion + 1
        #expect(MachineCalibration.merged([Self.base, other]) == nil)
    }

    @Test(arguments: [("1.5", 1.5 as Double?), ("abc", nil), ("1", nil), ("11", nil)])
    func slowdownFactorFromTheEnvironment(raw: String, expected: Double?) throws {
        let environment = [InjectedSlowdown.environmentKey: raw]
        if let expected {
            let factor = try InjectedSlowdown.factor(environment: environment)
            #expect(factor == expected)
        } else {
            #expect(throws: ConfigurationError.self) { try InjectedSlowdown.factor(environment: environment) }
        }
        let unset = try InjectedSlowdown.factor(environment: [:])
        #expect(unset == nil)
    }

    /// Takes a chosen time (a fake: no real model call takes a time chosen on demand, and the injection around it is
    /// what is under test).
    struct SleepingBackend: TextCompleting {
        var ms: Int
        func complete(_ request: CompletionRequest) async throws -> Completion {
            try await Task.sleep(for: .milliseconds(ms))
            return .stub("ok", for: request)
        }
    }

    @Test func aTailSlowdownSlowsOnlyTheLongCalls() async throws {
        let request = CompletionRequest(prompt: "x", maxTokens: 1)
        func took(_ ms: Int) async throws -> Duration {
            let clock = ContinuousClock(), start = clock.now
            _ = try await InjectedSlowdown(wrapping: SleepingBackend(ms: ms), factor: 2, aboveMs: 150).complete(request)
            return clock.now - start
        }
        #expect(try await took(300) >= .milliseconds(600))
        #expect(try await took(10) < .milliseconds(150))
        #expect(try InjectedSlowdown.aboveMs(environment: [InjectedSlowdown.aboveKey: "470"]) == 470)
        #expect(throws: ConfigurationError.self) { try InjectedSlowdown.aboveMs(environment: [InjectedSlowdown.aboveKey: "-1"]) }
    }
}
