import Foundation

/// How `compare` makes the latency of two runs comparable. Absolute latency is a property of the
/// machine as much as of the code, so it is never compared raw without a reason to trust the machines
/// are the same.
public enum LatencyBasis: String, Sendable, CaseIterable, Codable {
    /// The caller vouches that both runs were measured on one machine, interleaved (the same-runner
    /// A/B of `scripts/ci-regression`): raw latency is compared. When both runs carry a calibration
    /// they must still agree within the margin.
    case sameRunner = "same-runner"
    /// Latency ratios are divided by the ratio of the runs' machine calibrations and the interval
    /// widened by the calibrations' spread; refused when a run has no calibration, a calibration's own
    /// samples disagree (`CalibrationConsistency`), or the calibrations differ by more than the margin.
    case calibrated
    /// No latency checks (accuracy and fallbacks only).
    case skip
}

/// The machine factor latency checks are scaled by: CURRENT/BASE calibration, with its interval.
public struct MachineAdjustment: Sendable, Hashable, Codable {
    /// Calibrations further apart than this factor (either way) make latency not comparable: scaling
    /// by a fixed request is only trusted between machines of similar speed (see docs/ci.md).
    public static let margin = 1.25

    public var basis: LatencyBasis
    /// What latency ratios are divided by (1 for same-runner runs).
    public var factor: Double
    /// 95% interval of `factor` (a point for same-runner runs).
    public var interval: Statistics.Interval

    public static let identity = MachineAdjustment(basis: .sameRunner, factor: 1, interval: .init(low: 1, high: 1))

    /// A CURRENT/BASE latency ratio on the common machine scale.
    public func scale(_ ratio: Double) -> Double { ratio / factor }

    /// A ratio's interval on the common scale, widened by the calibration's own interval (conservative:
    /// the worst case of both ends).
    public func scale(_ ratioInterval: Statistics.Interval) -> Statistics.Interval {
        .init(low: ratioInterval.low / interval.high, high: ratioInterval.high / interval.low)
    }

    /// The adjustment for comparing `current` with `base` on `basis`, and a note for the report; nil
    /// adjustment means latency is not checked. Throws when the machines are not comparable.
    public static func resolve(base: MachineCalibration?, current: MachineCalibration?, basis: LatencyBasis) throws -> (MachineAdjustment?, String) {
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
        let factor = current.medianMs / base.medianMs
        let interval = Statistics.bootstrapQuantileRatio(base: base.samples.map(\.ms), current: current.samples.map(\.ms), 0.5)
        let described = describe(factor, interval)
        // The calibration runs through the run's own server, so with other server threads it measures the
        // settings change under test as much as the machine: it cannot scale the runs, and only a caller who
        // vouches for one runner (same-runner) may compare them.
        if let baseThreads = base.threads, let currentThreads = current.threads, baseThreads != currentThreads {
            let reason = "the calibrations were taken with different server threads (\(baseThreads) vs \(currentThreads)), so they measure the settings change, not the machine"
            guard basis == .sameRunner else { throw MachineComparabilityError.differentYardstick(reason) }
            return (.identity, "latency compared raw (--latency same-runner): \(reason) (CURRENT/BASE \(described))" + caution)
        }
        guard factor <= margin && factor >= 1 / margin else {
            throw MachineComparabilityError.machinesDiffer(base: base.summary, current: current.summary, factor: factor, margin: margin)
        }
        if basis == .sameRunner {
            return (.identity, "latency compared raw (--latency same-runner); the runs' machine calibrations agree: CURRENT/BASE \(described)" + caution)
        }
        return (MachineAdjustment(basis: .calibrated, factor: factor, interval: interval),
                "latency calibrated: ratios divided by the machine calibration CURRENT/BASE \(described), intervals widened by its spread")
    }

    static func describe(_ factor: Double, _ interval: Statistics.Interval) -> String {
        String(format: "×%.2f (%.2f–%.2f)", factor, interval.low, interval.high)
    }
}

/// Why the latency of two runs cannot be compared.
public enum MachineComparabilityError: Error, Sendable, Equatable, CustomStringConvertible {
    case missingCalibration(base: Bool, current: Bool)
    case differentYardstick(String)
    case machinesDiffer(base: String, current: String, factor: Double, margin: Double)
    /// The calibrations (nil: consistent) whose own samples disagree beyond `CalibrationConsistency.maxSpreadRatio`.
    case inconsistentCalibration(base: CalibrationConsistency?, current: CalibrationConsistency?)

    /// What was found about the runs, without the advice: the inconsistent calibrations and their figures.
    var finding: String {
        guard case .inconsistentCalibration(let base, let current) = self else { return description }
        let runs = [("base", base), ("current", current)].compactMap { name, check in
            check.map { "the \(name) run's machine calibration is inconsistent: its \($0.figures), beyond ×\(String(format: "%.2f", $0.maxSpreadRatio))" }
        }
        return runs.joined(separator: "; ")
    }

    public var description: String {
        let advice = "compare runs measured on the same runner (scripts/ci-regression runs base and candidate interleaved), or pass --latency skip to check accuracy and fallbacks only"
        switch self {
        case .missingCalibration(let base, let current):
            let who = base && current ? "neither run has a machine calibration" : (base ? "the base run has no machine calibration" : "the current run has no machine calibration")
            return "latency not comparable: \(who) (recorded before calibration existed, or without generation); \(advice)"
        case .differentYardstick(let reason):
            return "latency not comparable: \(reason); \(advice)"
        case .machinesDiffer(let base, let current, let factor, let margin):
            return "latency not comparable: the machine calibrations differ by \(String(format: "×%.2f", factor)), beyond the "
                + "\(String(format: "×%.2f", margin)) margin (base: \(base); current: \(current)); \(advice)"
        case .inconsistentCalibration:
            return "latency not comparable: \(finding) (the machine was loaded or changed speed during the run, and scaling by it "
                + "would widen the latency interval until a real slowdown passes); re-run on a quiet machine, \(advice)"
        }
    }
}
