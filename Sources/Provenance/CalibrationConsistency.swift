import Support
import Foundation

/// Whether a run's machine calibration describes one state of the machine: its samples (the start and
/// the end of the run, and every block's after merging) agree within `maxSpreadRatio`. An inconsistent
/// calibration means the machine was loaded or changed speed during the run; its median cannot scale
/// latency and its interval would widen a real slowdown into a pass, so such a run is unsteady
/// (`MachineSteadiness`): its reports say so and `compare` does not judge its latency.
package struct CalibrationConsistency: Sendable, Hashable, Codable {
    package enum Verdict: String, Sendable, Codable {
        case consistent
        case inconsistent
        /// No sample, or one of 0 ms, below 0 or not a number: no request takes that, so the calibration was
        /// damaged (an edited report, a broken clock), not measured on an unsteady machine.
        case damaged
    }

    /// The slowest sample may take at most this many times the fastest. `compare` widens the ×1.10 latency
    /// threshold by the calibration ratio's bootstrap interval, which grows with the samples' spread: against
    /// the committed baseline (×1.15), a current run with two of six samples ×1.5 slower moves the threshold
    /// to ×1.73 and a doubling still fails; two samples ×2 slower move it to ×2.25 and a doubling passes.
    /// Measured with the fixed request: a steady machine ×1.15 (the committed baseline; start and end within
    /// 10%); one block of an A/B at load 8–14 ×1.96; two busy processes on the 2 cores ×4.4; eight busy
    /// processes in the run's first minute ×28–42.
    package static let maxSpreadRatio = 1.5

    package var verdict: Verdict
    /// Median milliseconds of the fixed request among the `start` and the `end` samples (nil without any).
    package var startMedianMs: Double?
    package var endMedianMs: Double?
    /// Fastest and slowest sample, and slowest over fastest; nil when the calibration is damaged.
    package var minMs: Double?
    package var maxMs: Double?
    package var spreadRatio: Double?
    /// The limit `spreadRatio` was judged against.
    package var maxSpreadRatio: Double
    /// Of a merged run: how many parts (blocks, shards) its samples came from, the largest spread within one part
    /// (what the verdict is judged on), and the slowest part's median over the fastest's (block-to-block agreement,
    /// judged by `MachineSteadiness`). Nil before merging.
    package var parts: Int?
    package var partSpreadRatio: Double?
    package var partMedianRatio: Double?

    enum CodingKeys: String, CodingKey {
        case verdict, startMedianMs = "start_median_ms", endMedianMs = "end_median_ms", minMs = "min_ms", maxMs = "max_ms"
        case spreadRatio = "spread_ratio", maxSpreadRatio = "max_spread_ratio", samples, invalidSamples = "invalid_samples"
        case parts, partSpreadRatio = "part_spread_ratio", partMedianRatio = "part_median_ratio"
    }

    package init(_ calibration: MachineCalibration, maxSpreadRatio: Double = Self.maxSpreadRatio) {
        let values = calibration.samples.map(\.ms)
        func median(_ phase: String) -> Double? {
            let own = calibration.samples.filter { $0.phase == phase }.map(\.ms)
            return own.isEmpty ? nil : Statistics.quantile(own, 0.5)
        }
        self.maxSpreadRatio = maxSpreadRatio
        let invalid = values.filter { !($0 > 0 && $0.isFinite) }.count
        // No sample, or a zero, negative or NaN time, is no yardstick: no figure is made from it (none would be finite).
        guard !values.isEmpty, invalid == 0, let fastest = values.min(), let slowest = values.max() else {
            verdict = .damaged
            invalidSamples = invalid
            samples = values.count
            return
        }
        startMedianMs = median("start")
        endMedianMs = median("end")
        minMs = fastest
        maxMs = slowest
        spreadRatio = slowest / fastest
        // Each part on its own samples: a part is one stretch of time, and the rule is about one state of the machine.
        let groups = calibration.parts.map { $0.map(\.ms) }
        let withinParts = groups.map { ($0.max() ?? 0) / ($0.min() ?? 1) }.max() ?? spreadRatio!
        if groups.count > 1 {
            parts = groups.count
            partSpreadRatio = withinParts
            let medians = groups.map { Statistics.quantile($0, 0.5) }
            partMedianRatio = (medians.max() ?? 1) / (medians.min() ?? 1)
        }
        verdict = withinParts <= maxSpreadRatio ? .consistent : .inconsistent
    }

    /// Of a damaged calibration: samples in all, and those no request can take (0 ms, negative, not a number); nil otherwise.
    package var samples: Int?
    package var invalidSamples: Int?

    package var isConsistent: Bool { verdict == .consistent }

    /// The figures: `samples span ×34.44 (412–14187 ms; start median 13500 ms, end median 450 ms)`.
    package var figures: String {
        guard let spreadRatio, let minMs, let maxMs else {
            return (samples ?? 0) == 0 ? "samples: none" : "samples: \(invalidSamples ?? 0) of \(samples ?? 0) are 0 ms, negative or not a number"
        }
        let phases = [("start", startMedianMs), ("end", endMedianMs)].compactMap { name, ms in ms.map { String(format: "%@ median %.0f ms", name, $0) } }
        let whole = String(format: "samples span ×%.2f (%.0f–%.0f ms", spreadRatio, minMs, maxMs)
            + (phases.isEmpty ? "" : "; " + phases.joined(separator: ", ")) + ")"
        guard let parts, let partSpreadRatio, let partMedianRatio else { return whole }
        return whole + String(format: ", at most ×%.2f within one of its %d parts, part medians ×%.2f apart", partSpreadRatio, parts, partMedianRatio)
    }

    /// One line for the run's reports.
    package var sentence: String {
        switch verdict {
        case .consistent:
            "Machine calibration consistent: its \(figures), within ×\(String(format: "%.2f", maxSpreadRatio))."
        case .damaged:
            "⚠️ Machine calibration damaged (\(figures)): no request takes that time, so the report was edited or the clock failed; "
                + "the run's latency figures cannot be scaled or trusted, and `compare` does not judge them."
        case .inconsistent:
            "⚠️ Machine calibration inconsistent: its \(figures), beyond the ×\(String(format: "%.2f", maxSpreadRatio)) a steady machine "
                + "stays within: the machine was loaded or changed speed during the run, so its latency figures are unreliable and "
                + "`compare` does not judge them."
        }
    }
}
