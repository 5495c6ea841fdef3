import Support
import Foundation
import Provenance

/// Whether a generation run's machine stayed one machine while it ran: its calibration agrees with itself
/// (start against end, and every sample against every other), and no more than a small share of its
/// requests generated at a collapsed speed. An unsteady run's latency describes the load, not the code:
/// its reports say so at the top, and `compare` does not judge its latency.
package struct MachineSteadiness: Sendable, Hashable, Codable {
    /// A request generating slower than this fraction of the run's median tokens/s collapsed. On a steady
    /// machine the slowest of the committed baseline's 193 generations ran at 0.76 of the median (43 vs
    /// 56 tok/s), so reply length and sampling move speed by far less; with a core taken from llama-server's
    /// two threads (which spin at barriers) generation fell from 60–65 to 0.45–0.68 tok/s, a hundredth.
    /// Anything under a quarter is a collapse, not noise.
    package static let slowFraction = 0.25
    /// More than this share of collapsed requests makes the run unsteady. A steady machine has none (the
    /// baseline); one collapse among 20 requests moves a p95 by seconds, which no latency check survives.
    package static let maxSlowShare = 0.05
    /// Requests generating fewer tokens are not judged: their speed rests on one or two token intervals,
    /// which one scheduler tick can stretch.
    package static let minTokens = 4
    /// Start and end calibration medians further apart than this (either way) mean the machine changed
    /// speed during the run by more than two runs may differ and still be compared (`MachineAdjustment.margin`).
    package static let maxStartEndRatio = MachineAdjustment.margin

    /// The calibration's own verdict (nil: the run has no calibration, so only the requests are judged).
    package var calibration: CalibrationConsistency?
    /// End median / start median of the calibration's fixed request (nil without both phases).
    package var startEndRatio: Double?
    /// Median generation speed of the judged requests, tokens/s (nil without any).
    package var medianTokensPerSecond: Double?
    /// The slowest judged request's speed, tokens/s.
    package var slowestTokensPerSecond: Double?
    /// Requests judged (a model generation of at least `minTokens` tokens) and those below `slowFraction` of the median.
    package var requests: Int
    package var slowRequests: Int
    /// The limits the run was judged against.
    package var slowFraction: Double
    package var maxSlowShare: Double
    package var maxStartEndRatio: Double
    /// What made the run unsteady, one phrase each (empty: steady).
    package var reasons: [String]

    enum CodingKeys: String, CodingKey {
        case calibration, startEndRatio = "start_end_ratio", medianTokensPerSecond = "median_tokens_per_second"
        case slowestTokensPerSecond = "slowest_tokens_per_second", requests, slowRequests = "slow_requests", slowFraction = "slow_fraction"
        case maxSlowShare = "max_slow_share", maxStartEndRatio = "max_start_end_ratio", reasons
    }

    package var isSteady: Bool { reasons.isEmpty }

    /// More than `maxSlowShare` of the judged requests collapsed: the one cause that makes a run's latency meaningless
    /// even beside a run measured at the same time (a same-runner A/B), where calibration drift is shared by both sides.
    package var collapsed: Bool { Double(slowRequests) > maxSlowShare * Double(requests) }

    /// Judges a run from its machine calibration and the generation speed of its records.
    package init(calibration: MachineCalibration?, records: [GenerationRecord]) {
        slowFraction = Self.slowFraction
        maxSlowShare = Self.maxSlowShare
        maxStartEndRatio = Self.maxStartEndRatio
        var reasons: [String] = []
        let consistency = calibration.map { CalibrationConsistency($0) }
        self.calibration = consistency
        if let consistency, consistency.verdict == .damaged {
            reasons.append("the machine calibration is damaged, not unsteady (\(consistency.figures)): no request takes that time")
        } else if let consistency, !consistency.isConsistent {
            reasons.append("the machine calibration's \(consistency.figures), beyond ×\(Self.format(consistency.maxSpreadRatio))")
        }
        // Start against end within each part (a block's own start and end), and the parts against each other.
        if let calibration, consistency?.isConsistent == true {
            let drifts = calibration.parts.compactMap { part -> (start: Double, end: Double)? in
                let start = part.filter { $0.phase == "start" }.map(\.ms), end = part.filter { $0.phase == "end" }.map(\.ms)
                guard !start.isEmpty, !end.isEmpty else { return nil }
                return (Statistics.quantile(start, 0.5), Statistics.quantile(end, 0.5))
            }
            if let worst = drifts.max(by: { abs(log($0.end / $0.start)) < abs(log($1.end / $1.start)) }) {
                let ratio = worst.end / worst.start
                startEndRatio = ratio
                if ratio > maxStartEndRatio || ratio < 1 / maxStartEndRatio {
                    reasons.append(String(format: "the machine calibration went from %.0f ms at the start to %.0f ms at the end%@ (×%.2f), beyond ×%@",
                                          worst.start, worst.end, drifts.count > 1 ? " of one part" : "", ratio, Self.format(maxStartEndRatio)))
                }
            }
            // Parts measured minutes apart differ by drift; beyond the margin two runs may differ by, the merged run
            // is no one machine to scale latency by.
            if let ratio = consistency?.partMedianRatio, ratio > maxStartEndRatio {
                reasons.append(String(format: "the calibration medians of its %d parts are ×%.2f apart, beyond ×%@",
                                      consistency?.parts ?? 0, ratio, Self.format(maxStartEndRatio)))
            }
        }
        let speeds = records.compactMap(Self.judgedSpeed)
        requests = speeds.count
        let median = speeds.isEmpty ? nil : Statistics.quantile(speeds, 0.5)
        medianTokensPerSecond = median
        slowestTokensPerSecond = speeds.min()
        slowRequests = Self.collapsed(records).count
        if let median, Double(slowRequests) > maxSlowShare * Double(requests) {
            reasons.append(String(format: "%d of %d requests generated below %@ of the run's median %.1f tokens/s (slowest %.2f tokens/s), more than %@",
                                  slowRequests, requests, Self.percent(slowFraction), median, slowestTokensPerSecond ?? .nan, Self.percent(maxSlowShare)))
        }
        self.reasons = reasons
    }

    /// A record's generation speed when it is judged (a model generation of at least `minTokens` tokens), else nil.
    static func judgedSpeed(_ record: GenerationRecord) -> Double? {
        guard let tokens = record.generate?.completionTokens, tokens >= minTokens,
              let speed = record.generateTokensPerSecond, speed.isFinite, speed > 0 else { return nil }
        return speed
    }

    /// The keys of the records whose generation collapsed: below `slowFraction` of their variant's median speed
    /// (each variant against its own median: a variant may run another, slower model).
    package static func collapsed(_ records: [GenerationRecord]) -> Set<String> {
        var out: Set<String> = []
        for group in Dictionary(grouping: records.filter { judgedSpeed($0) != nil }, by: \.variant).values {
            let median = Statistics.quantile(group.compactMap(judgedSpeed), 0.5)
            for record in group where judgedSpeed(record)! < slowFraction * median { out.insert(record.key) }
        }
        return out
    }

    /// What was found and what it means, one sentence (nil when steady).
    package var sentence: String? {
        guard !isSteady else { return nil }
        return "Machine unsteady during this run: " + reasons.joined(separator: "; ")
            + ". The machine was loaded or changed speed while it ran, so its latency figures describe the load, not the code: "
            + "`compare` does not judge its latency (accuracy, fallbacks and token cost still are); re-run on a quiet machine."
    }

    /// A bold line for the top of the run's reports (empty when steady).
    package var warning: String {
        sentence.map { "**⚠️ " + $0 + "**\n\n" } ?? ""
    }

    static func format(_ value: Double) -> String { String(format: "%.2f", value) }
    static func percent(_ value: Double) -> String { String(format: "%g%%", value * 100) }
}
