import Foundation
import Provenance

/// How `compare` makes the latency of two runs comparable. Absolute latency is a property of the
/// machine as much as of the code, so it is never compared raw without a reason to trust the machines
/// are the same.
package enum LatencyBasis: String, Sendable, CaseIterable, Codable {
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

/// Why the latency of two runs cannot be compared.
package enum MachineComparabilityError: Error, Sendable, Equatable, CustomStringConvertible {
    case missingCalibration(base: Bool, current: Bool)
    case differentYardstick(String)
    case machinesDiffer(base: String, current: String, factor: Double, margin: Double, component: String)
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

    package var description: String {
        let advice = "compare runs measured on the same runner (scripts/ci-regression runs base and candidate interleaved), or pass --latency skip to check accuracy and fallbacks only"
        switch self {
        case .missingCalibration(let base, let current):
            let who = base && current ? "neither run has a machine calibration" : (base ? "the base run has no machine calibration" : "the current run has no machine calibration")
            return "latency not comparable: \(who) (recorded before calibration existed, or without generation); \(advice)"
        case .differentYardstick(let reason):
            return "latency not comparable: \(reason); \(advice)"
        case .machinesDiffer(let base, let current, let factor, let margin, let component):
            return "latency not comparable: the machine calibrations differ by \(String(format: "×%.2f", factor)) in \(component), beyond the "
                + "\(String(format: "×%.2f", margin)) margin (base: \(base); current: \(current)); \(advice)"
        case .inconsistentCalibration:
            return "latency not comparable: \(finding) (the machine was loaded or changed speed during the run, and scaling by it "
                + "would widen the latency interval until a real slowdown passes); re-run on a quiet machine, \(advice)"
        }
    }
}
