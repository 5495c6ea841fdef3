import BenchSupport

/// Latency `compare` leaves unjudged because a run's machine was unsteady (`MachineSteadiness`): its
/// latency describes the load, not the code, under any basis — raw it would fail or pass by the load,
/// calibrated its interval would widen until a real slowdown passes. Accuracy, fallbacks and token cost
/// do not depend on the machine and are still judged, so the exit code is theirs; the note heads the
/// report and the JUnit output carries every latency metric as skipped, so no job reads it as a pass.
public struct LatencyNotJudged: Sendable, Hashable, Encodable {
    /// `base` and/or `current`: the unsteady runs.
    public var runs: [String]
    /// Each unsteady run's reasons, one line per run.
    public var reasons: [String]
    /// The latency metrics left unjudged.
    public var metrics: [String]

    enum CodingKeys: String, CodingKey { case runs, reasons, metrics, note }

    /// Nil when both runs were steady or latency is skipped anyway.
    init?(base: GenerationReport, current: GenerationReport, basis: LatencyBasis) {
        guard basis != .skip else { return nil }
        let unsteady = [("base", base), ("current", current)].compactMap { name, report -> (String, MachineSteadiness)? in
            let steadiness = MachineSteadiness(report)
            return steadiness.isSteady ? nil : (name, steadiness)
        }
        guard !unsteady.isEmpty else { return nil }
        runs = unsteady.map(\.0)
        reasons = unsteady.map { name, steadiness in "the \(name) run: " + steadiness.reasons.joined(separator: "; ") }
        metrics = Comparison.latencyMetrics.sorted()
    }

    /// The note at the top of the comparison.
    public var note: String {
        let who = runs.count == 2 ? "the base and the current run" : "the \(runs[0]) run"
        return "⚠️ latency NOT JUDGED (neither passed nor failed): the machine was unsteady during \(who) (" + reasons.joined(separator: "; ")
            + "); its latency describes the load, not the code. Accuracy, fallbacks and token cost are judged as usual; "
            + "re-run on a quiet machine to judge latency."
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(runs, forKey: .runs)
        try container.encode(reasons, forKey: .reasons)
        try container.encode(metrics, forKey: .metrics)
        try container.encode(note, forKey: .note)
    }

    /// JUnit test cases, one per latency metric, each skipped with the note.
    var junit: String {
        var out = "  <testsuite name=\"latency not judged\" tests=\"\(metrics.count)\" failures=\"0\" skipped=\"\(metrics.count)\">\n"
        for metric in metrics {
            out += "    <testcase classname=\"\(ReportText.xml(metric))\" name=\"not judged: machine unsteady\">\n"
            out += "      <skipped message=\"\(ReportText.xml(note))\"/>\n    </testcase>\n"
        }
        return out + "  </testsuite>\n"
    }
}

extension MachineSteadiness {
    /// Judges a generation report from its calibration and records (reports written before the check included).
    public init(_ report: GenerationReport) {
        self.init(calibration: report.provenance.calibration, records: report.records.filter { $0.fallbackReason != .crisisProtocol })
    }
}
