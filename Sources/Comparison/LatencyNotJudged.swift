import Support
import Generation
import Provenance

/// Latency `compare` leaves unjudged because a run's machine was unsteady (`MachineSteadiness`): its
/// latency describes the load, not the code, under any basis — raw it would fail or pass by the load,
/// calibrated its interval would widen until a real slowdown passes. Accuracy, fallbacks and token cost
/// do not depend on the machine and are still judged, so the exit code is theirs; the note heads the
/// report and the JUnit output carries every latency metric as skipped, so no job reads it as a pass.
package struct LatencyNotJudged: Sendable, Hashable, Encodable {
    /// `base` and/or `current`: the unsteady runs.
    package var runs: [String]
    /// Each unsteady run's reasons, one line per run.
    package var reasons: [String]
    /// The latency metrics left unjudged.
    package var metrics: [String]

    enum CodingKeys: String, CodingKey { case runs, reasons, metrics, note, routes }


    /// Whether a run was unsteady, whether a run's pool mixed servers beyond the margin, and whether the server's
    /// build or settings changed between calibrated runs (let through by `--allow-mismatch`).
    var unsteady = false, unlikePool = false, serverChanged = false
    /// Whether a run's calibration is damaged (a time no request takes): an edited report or a broken clock, not a load.
    var damaged = false
    /// Same-runner, whether the two runs' calibrations differ beyond the margin: they were not measured side by side.
    var sidesDiffer = false
    /// The runs that were unsteady, damaged or pooled unlike (not those only named because the server changed).
    var troubled: [String] = []
    /// Routes (check keys) whose latency is not judged because most of their requests collapsed; the rest is judged.
    var routes: [String] = []

    /// Routes most of whose requests collapsed (`GenerationComparer.unjudgedRoutes`): their latency is not judged, every
    /// other route's is, and the note names them.
    init(routes: [(key: String, reason: String, runs: [String])]) {
        runs = Array(Set(routes.flatMap(\.runs))).sorted()
        troubled = runs
        reasons = routes.map { "\($0.key): \($0.reason)" }
        metrics = Comparison.latencyMetrics.sorted()
        self.routes = routes.map(\.key)
    }

    /// Same-runner runs whose calibrations differ beyond the margin (`reason` says by how much): latency is left
    /// unjudged, not refused — every other check still runs.
    init(sidesDiffer reason: String) {
        runs = ["base", "current"]
        reasons = [reason]
        metrics = Comparison.latencyMetrics.sorted()
        sidesDiffer = true
    }

    /// Nil when both runs were steady (and, calibrated, each pool's servers alike) or latency is skipped anyway.
    /// A pool whose servers' calibrations differ beyond the margin (`PoolLatency.disagreement`) has no one
    /// machine to scale its latency by: its pooled figures depend on the dealing.
    init?(base: GenerationReport, current: GenerationReport, basis: LatencyBasis, environment: [EnvironmentDifference] = []) {
        guard basis != .skip else { return nil }
        var runs: [String] = [], reasons: [String] = []
        // A calibration runs through the server it calibrates: a slower build or setting would be divided out as "the machine".
        let speed = environment.filter { $0.effect == .serverSpeed && $0.recordedOnBothSides }
        if basis == .calibrated, !speed.isEmpty {
            serverChanged = true
            runs = ["base", "current"]
            reasons.append("the server changed between the runs (" + speed.map { "\($0.name): \($0.base) → \($0.current)" }.joined(separator: "; ")
                           + "), and a calibration through each run's own server would divide the change out as machine speed")
        }
        for (name, report) in [("base", base), ("current", current)] {
            var why: [String] = []
            let steadiness = MachineSteadiness(report)
            // Same-runner, both sides were measured together, block by block: drift lands in both and in the block
            // t-interval, so only a collapse or a damaged calibration leaves latency unjudged (`steadinessContext` says the rest).
            let refuses = basis != .sameRunner || steadiness.collapsed || steadiness.calibration?.verdict == .damaged
            if !steadiness.isSteady, refuses {
                why += steadiness.reasons
                if steadiness.calibration?.verdict == .damaged { damaged = true } else { unsteady = true }
            }
            if basis == .calibrated, let disagreement = report.pool?.disagreement {
                why.append("its pool's " + disagreement.reason)
                unlikePool = true
            }
            if !why.isEmpty {
                if !runs.contains(name) { runs.append(name) }
                troubled.append(name)
                reasons.append("the \(name) run: " + why.joined(separator: "; "))
            }
        }
        guard !runs.isEmpty else { return nil }
        self.runs = runs
        self.reasons = reasons
        metrics = Comparison.latencyMetrics.sorted()
    }

    /// Same-runner, what made a run unsteady that does not leave its latency unjudged (calibration drift, shared by
    /// both sides measured together): context for the reader, one line per run.
    static func steadinessContext(base: GenerationReport, current: GenerationReport, basis: LatencyBasis) -> [String] {
        guard basis == .sameRunner else { return [] }
        return [("base", base), ("current", current)].compactMap { name, report in
            let steadiness = MachineSteadiness(report)
            guard !steadiness.isSteady, !steadiness.collapsed, steadiness.calibration?.verdict != .damaged else { return nil }
            return "context, not a refusal: the \(name) run's machine drifted (" + steadiness.reasons.joined(separator: "; ")
                + "); both sides were measured together on one runner, so the drift is in both and in the latency interval"
        }
    }

    /// The note at the top of the comparison.
    package var note: String {
        // Named by the runs that were in trouble: a changed server names both runs without either being unsteady.
        let named = troubled.isEmpty ? runs : troubled
        let who = named.count == 2 ? "the base and the current run" : "the \(named[0]) run"
        let judged = " Accuracy, fallbacks and token cost are judged as usual; "
        // A changed server is a cause of its own beside a load: a quiet machine alone would not judge that latency.
        let alsoServer = serverChanged ? "measure both builds or settings on one runner (`--latency same-runner`) and " : ""
        if !routes.isEmpty {
            return "⚠️ latency NOT JUDGED for " + routes.joined(separator: ", ") + " (neither passed nor failed): " + reasons.joined(separator: "; ")
                + "; its latency describes the machine, not the code. Every other route's latency is judged, on its steady requests;"
                + judged + "re-run on a quiet machine to judge it."
        }
        if sidesDiffer {
            return "⚠️ latency NOT JUDGED (neither passed nor failed): " + reasons.joined(separator: "; ")
                + ": the two runs were not measured side by side on one runner." + judged + "run both sides interleaved (scripts/ci-regression) to judge latency."
        }
        if damaged && !unsteady && !unlikePool && !serverChanged {
            return "⚠️ latency NOT JUDGED (neither passed nor failed): " + reasons.joined(separator: "; ")
                + "; the report was edited or the clock failed, so its calibration cannot be trusted." + judged + "run that side again to judge latency."
        }
        if serverChanged && !unsteady && !unlikePool {
            return "⚠️ latency NOT JUDGED (neither passed nor failed): " + reasons.joined(separator: "; ") + "." + judged
                + "measure both builds or settings on one runner (`--latency same-runner`) to judge their latency."
        }
        guard unlikePool else {
            return "⚠️ latency NOT JUDGED (neither passed nor failed): the machine was unsteady during \(who) (" + reasons.joined(separator: "; ")
                + "); its latency describes the load, not the code." + judged + alsoServer + "re-run on a quiet machine to judge latency."
        }
        let what = unsteady ? "the machine was unsteady or the pool's servers unlike" : "the pool's servers were unlike"
        return "⚠️ latency NOT JUDGED (neither passed nor failed): \(what) during \(who) (" + reasons.joined(separator: "; ")
            + "); pooled latency mixes machines and depends on which items each served." + judged
            + alsoServer + "read generation.md's latency per server, or re-run on servers whose calibrations agree to judge latency."
    }

    /// Why, in a JUnit test case's name.
    private var shortCause: String {
        [routes.isEmpty ? nil : "requests collapsed", unsteady ? "machine unsteady" : nil, damaged ? "calibration damaged" : nil, sidesDiffer ? "calibrations differ" : nil, unlikePool ? "pool servers unlike" : nil, serverChanged ? "server changed" : nil].compactMap { $0 }.joined(separator: ", ")
    }

    package func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(runs, forKey: .runs)
        try container.encode(reasons, forKey: .reasons)
        try container.encode(metrics, forKey: .metrics)
        try container.encode(note, forKey: .note)
        if !routes.isEmpty { try container.encode(routes, forKey: .routes) }
    }

    /// JUnit test cases, one per latency metric, each skipped with the note.
    var junit: String {
        var out = "  <testsuite name=\"latency not judged\" tests=\"\(metrics.count)\" failures=\"0\" skipped=\"\(metrics.count)\">\n"
        for metric in metrics {
            out += "    <testcase classname=\"\(ReportText.xml(metric))\" name=\"not judged: \(shortCause)\">\n"
            out += "      <skipped message=\"\(ReportText.xml(note))\"/>\n    </testcase>\n"
        }
        return out + "  </testsuite>\n"
    }
}

extension MachineSteadiness {
    /// Judges a generation report from its calibration and records (reports written before the check included).
    package init(_ report: GenerationReport) {
        self.init(calibration: report.provenance.calibration, records: report.records.filter { $0.fallbackReason != .crisisProtocol })
    }
}
