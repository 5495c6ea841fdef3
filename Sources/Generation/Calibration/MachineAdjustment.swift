import Support
import Checks
import Foundation
import Provenance

/// The machine factors latency checks are scaled by, CURRENT/BASE calibration, one per component of a
/// request: prompt processing and generation slow by different factors between machines (two real
/// machines of one kind differed ×2.5 in one and ×1.65 in the other), so one factor for everything reads
/// the difference as a regression of whatever is mostly prompt (TTFT) and an improvement of whatever is
/// mostly generation (TPOT). Each item's latency is scaled by its own mix of the components (`LatencyMix`).
package struct MachineAdjustment: Sendable, Hashable, Codable {
    /// Calibration components further apart than this factor (either way) make latency not comparable:
    /// scaling is only trusted between machines of similar speed (see docs/ci.md).
    package static let margin = Thresholds.defaultCalibrationMargin

    /// One CURRENT/BASE factor with its 95% bootstrap interval.
    package struct Factor: Sendable, Hashable, Codable {
        package var value: Double
        package var interval: Statistics.Interval

        package static let one = Factor(value: 1, interval: .init(low: 1, high: 1))

        /// The median of `current` over the median of `base`, with the bootstrap interval of that ratio.
        init(base: [Double], current: [Double]) {
            value = Statistics.quantile(current, 0.5) / Statistics.quantile(base, 0.5)
            interval = Statistics.bootstrapQuantileRatio(base: base, current: current, 0.5)
        }

        init(value: Double, interval: Statistics.Interval) {
            self.value = value
            self.interval = interval
        }

        var text: String { String(format: "×%.2f (%.2f–%.2f)", value, interval.low, interval.high) }
    }

    package var basis: LatencyBasis
    /// The whole fixed request as the client timed it (the server's figure for calibrations without client times):
    /// scales time that is neither prompt processing nor generation (detection, history translation, the client).
    package var request: Factor
    /// Prompt processing, milliseconds per prompt token: scales the time to each request's first token.
    package var prompt: Factor
    /// Generation, milliseconds per generated token: scales the time after each request's first token.
    package var generation: Factor

    package static let identity = MachineAdjustment(basis: .sameRunner, request: .one, prompt: .one, generation: .one)

    package init(basis: LatencyBasis, request: Factor, prompt: Factor, generation: Factor) {
        self.basis = basis
        self.request = request
        self.prompt = prompt
        self.generation = generation
    }

    /// The components of two calibrations (already checked to share the fixed request's prompt).
    init(basis: LatencyBasis, base: MachineCalibration, current: MachineCalibration) {
        func perToken(_ calibration: MachineCalibration, _ ms: KeyPath<MachineCalibration.Sample, Double>,
                      _ tokens: KeyPath<MachineCalibration.Sample, Int>) -> [Double] {
            calibration.samples.map { $0[keyPath: ms] / Double(max(1, $0[keyPath: tokens])) }
        }
        self.init(basis: basis,
                  request: Factor(base: base.samples.map { $0.clientMs ?? $0.ms }, current: current.samples.map { $0.clientMs ?? $0.ms }),
                  prompt: Factor(base: perToken(base, \.promptMs, \.promptTokens), current: perToken(current, \.promptMs, \.promptTokens)),
                  generation: Factor(base: perToken(base, \.generationMs, \.generatedTokens),
                                     current: perToken(current, \.generationMs, \.generatedTokens)))
    }

    /// The components by name, in report order.
    var components: [(name: String, factor: Factor)] {
        [("fixed request", request), ("prompt processing", prompt), ("generation", generation)]
    }

    /// How much longer the base machine's `mix` would take on the current machine: each component's time
    /// times its factor, over the whole.
    package func factor(_ mix: LatencyMix) -> Double {
        weighted(mix) { $0.value }
    }

    /// `factor(mix)`'s interval over `factor(mix)`: every component at its low end, and at its high end.
    package func relativeInterval(_ mix: LatencyMix) -> Statistics.Interval {
        let factor = factor(mix)
        return .init(low: weighted(mix) { $0.interval.low } / factor, high: weighted(mix) { $0.interval.high } / factor)
    }

    private func weighted(_ mix: LatencyMix, _ value: (Factor) -> Double) -> Double {
        guard mix.total > 0 else { return value(request) }
        return (mix.prompt * value(prompt) + mix.generation * value(generation) + mix.other * value(request)) / mix.total
    }

    /// The first component beyond the margin, if any.
    func beyondMargin(_ margin: Double = Self.margin) -> (name: String, factor: Double)? {
        components.first { !($0.factor.value <= margin && $0.factor.value >= 1 / margin) }.map { ($0.name, $0.factor.value) }
    }

    /// `"fixed request ×1.20 (1.18–1.22), prompt processing ×1.31 (…), generation ×1.12 (…)"`.
    var describedComponents: String {
        components.map { "\($0.name) \($0.factor.text)" }.joined(separator: ", ")
    }

    /// The rule's note for a check whose pairs have the summed `mix`; empty for raw comparisons.
    package func ruleNote(_ mix: LatencyMix, what: String) -> String {
        guard basis == .calibrated else { return "" }
        return String(format: "; %@ divided by each item's machine factor from its own mix of prompt processing, generation and other time "
                          + "(×%.2f over these items: %.0f%% prompt, %.0f%% generation), thresholds widened by the factors' intervals",
                      what, factor(mix), 100 * mix.prompt / max(mix.total, .leastNonzeroMagnitude),
                      100 * mix.generation / max(mix.total, .leastNonzeroMagnitude))
    }

    /// The adjustment for comparing `current` with `base` on `basis`, and a note for the report; nil
    /// adjustment means latency is not checked. Throws when the machines are not comparable, among them
    /// when a component's factor is beyond `margin` (`Thresholds.calibrationMargin`).
    /// `serverChange` names the server settings or build that differ between the runs (nil: none): such a change moves
    /// the calibration, which runs through the server, so under same-runner a calibration gap beyond the margin is its effect.
    package static func resolve(base: MachineCalibration?, current: MachineCalibration?, basis: LatencyBasis,
                               margin: Double = MachineAdjustment.margin, serverChange: String? = nil) throws -> (MachineAdjustment?, String) {
        if basis == .skip { return (nil, "latency not checked (--latency skip)") }
        guard let base, let current else {
            if basis == .sameRunner {
                return (.identity, "latency compared raw: both runs declared measured on the same runner, interleaved (--latency same-runner)")
            }
            throw MachineComparabilityError.missingCalibration(base: base == nil, current: current == nil)
        }
        guard base.version == current.version else {
            throw MachineComparabilityError.differentYardstick("calibration versions differ (\(base.version) vs \(current.version))")
        }
        let tokens = (Statistics.quantile(base.samples.map { Double($0.promptTokens) }, 0.5), Statistics.quantile(current.samples.map { Double($0.promptTokens) }, 0.5))
        guard tokens.0 == tokens.1 else {
            throw MachineComparabilityError.differentYardstick("the calibration request's prompt is \(Int(tokens.0)) tokens in base and \(Int(tokens.1)) in current (another model or tokenizer)")
        }
        // A calibration whose own samples disagree describes no one machine: scaling by it would widen the
        // interval until a real slowdown passes. Raw (same-runner) comparison does not scale by it: noted only.
        let consistency = (base: CalibrationConsistency(base), current: CalibrationConsistency(current))
        let inconsistent = MachineComparabilityError.inconsistentCalibration(base: consistency.base.isConsistent ? nil : consistency.base,
                                                                               current: consistency.current.isConsistent ? nil : consistency.current)
        let caution = consistency.base.isConsistent && consistency.current.isConsistent ? "" : "; \(inconsistent.finding), not used to scale"
        if basis == .calibrated && !caution.isEmpty { throw inconsistent }
        let adjustment = MachineAdjustment(basis: .calibrated, base: base, current: current)
        // The calibration runs through the run's own server, so with other server threads it measures the
        // settings change under test as much as the machine: it cannot scale the runs, and only a caller who
        // vouches for one runner (same-runner) may compare them.
        if let baseThreads = base.threads, let currentThreads = current.threads, baseThreads != currentThreads {
            let reason = "the calibrations were taken with different server threads (\(baseThreads) vs \(currentThreads)), so they measure the settings change, not the machine"
            guard basis == .sameRunner else { throw MachineComparabilityError.differentYardstick(reason) }
            return (.identity, "latency compared raw (--latency same-runner): \(reason) (CURRENT/BASE \(adjustment.request.text))" + caution)
        }
        if let (component, factor) = adjustment.beyondMargin(margin) {
            if basis == .sameRunner, let serverChange {
                return (.identity, "latency compared raw (--latency same-runner): the calibrations differ by \(String(format: "×%.2f", factor)) in \(component), "
                        + "moved by the server's own change (\(serverChange)): they measure that change, not the machine" + caution)
            }
            throw MachineComparabilityError.machinesDiffer(base: base.summary, current: current.summary, factor: factor, margin: margin, component: component)
        }
        if basis == .sameRunner {
            return (.identity, "latency compared raw (--latency same-runner); the runs' machine calibrations agree: CURRENT/BASE \(adjustment.describedComponents)" + caution)
        }
        return (adjustment, "latency calibrated per component: CURRENT/BASE \(adjustment.describedComponents); each item's ratio divided by "
                + "its own mix of them, intervals widened by their spread")
    }
}
