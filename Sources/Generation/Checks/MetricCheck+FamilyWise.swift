import BenchSupport

/// One family for a compare's verdict, and what each check can see.
extension MetricCheck {
    static let gatingFamily = "all gating checks"

    /// Judges a compare's checks as one family: Holm across every gating check (every test with a
    /// p-value, in detection and generation alike) at `alpha`, so the chance that a job with no real
    /// change fails on any check is at most `alpha`. Exact checks (token cost, p = 0 or 1) carry no
    /// sampling noise and spend no α; checks not judged (too few items) neither; nor a test whose smallest
    /// possible p-value exceeds α (e.g. McNemar with fewer than 6 discordant records): it can never be
    /// significant, and since the discordant counts say nothing about the direction of the change (they are
    /// ancillary), leaving it out keeps the bound. Each check's minimum detectable effect is computed at α/m,
    /// Holm's first step (the level a lone real change must reach).
    package static func familyWise(_ checks: [MetricCheck], alpha: Double) -> [MetricCheck] {
        var out = checks
        for index in out.indices {
            switch out[index].powerBasis {
            case .logRatio?, .paired?:
                let testable = (out[index].smallestP ?? 0) <= alpha
                out[index].gating = testable
                out[index].family = testable ? gatingFamily : "cannot reach α (too few discordant records)"
            case .exact?: out[index].gating = false; out[index].family = "exact (no α spent)"
            case nil: out[index].gating = false; out[index].family = "not judged"
            }
        }
        out = holm(out, alpha: alpha)
        let level = alpha / Double(max(1, out.filter(\.gating).count))
        for index in out.indices {
            guard let basis = out[index].powerBasis else { continue }
            let mde = Statistics.minimumDetectableEffect(basis, alpha: level)
            out[index].mde = mde.isFinite ? mde : nil
            if mde > out[index].threshold { out[index].powerNote = out[index].cannotSee(mde: mde) }
        }
        return out
    }

    /// `cannot see a change of 2.0 points with n = 48: 80% power needs 7.1 points`.
    func cannotSee(mde: Double) -> String {
        let needs: String
        switch powerBasis {
        case .logRatio?:
            needs = String(format: "×%.2f (%+.1f%% beyond ×%.2f)", (1 + threshold) * (1 + mde), mde * 100, 1 + threshold)
        default:
            needs = String(format: "%.1f points", mde * 100)
        }
        return "cannot see a change of \(thresholdText) with n = \(n): 80% power needs \(needs)"
    }

    /// The threshold as the report writes it: `+10%` for ratios, `2.0 points` for rates.
    var thresholdText: String {
        if case .paired? = powerBasis { return String(format: "%.1f points", threshold * 100) }
        return String(format: "+%g%%", threshold * 100)
    }
}
