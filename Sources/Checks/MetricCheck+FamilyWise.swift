import Support
import Foundation

/// One family-wise error budget for a compare's verdict, split by kind of check, and what each check can see.
extension MetricCheck {
    /// The kinds of gating check a compare's α is split between, each with its weight. Detection and the
    /// outcomes people see (served, fallbacks) weigh twice what latency and token cost do, so that a dozen latency
    /// checks cannot dilute a detection regression out of its share, nor the reverse. The slowest tenth is its own
    /// kind: its exact test on a suite's ten slowest items cannot go below 2⁻¹⁰, which Holm's first step over every
    /// latency check never reaches, so among them it could never fire.
    package enum Kind: String, CaseIterable, Sendable, Codable {
        case detection, outcomes, latency, latencyTail = "latency tail", tokenCost = "token cost"

        package var weight: Double {
            switch self {
            case .detection, .outcomes: 2
            case .latency, .latencyTail, .tokenCost: 1
            }
        }

        /// The family a gating check of this kind is judged in.
        var family: String { "gating: \(rawValue)" }
    }

    /// α split between the kinds present: each kind's share is its weight over the present kinds' weights, so the
    /// shares add up to α (Bonferroni between kinds) and a compare without latency gives its share to the rest.
    /// A kind none of whose checks can reach its share even alone (the smallest possible p-value of each is above it:
    /// too few items or discordant records) gets none, and the shares are computed again over the rest, so α is spent
    /// only where something can be seen. Blind kinds are withdrawn one at a time, the farthest from its share first, and
    /// the shares computed again after each: a kind just short of its share may reach the larger one the others leave.
    /// Which checks can reach a level depends on their discordant counts and item numbers, not on the direction of any
    /// change, so the bound on false alarms holds (Tarone's argument, across kinds).
    package static func alphaShares(_ checks: [MetricCheck], alpha: Double) -> [Kind: Double] {
        let judged = checks.filter { $0.powerBasis.map { $0 != .exact } ?? false }
        var present = Set(judged.map(\.kind))
        while true {
            let total = present.map(\.weight).reduce(0, +)
            let shares = Dictionary(uniqueKeysWithValues: present.map { ($0, alpha * $0.weight / total) })
            // How far each kind's best check is from its share (above 1: blind).
            let distance = Dictionary(uniqueKeysWithValues: present.map { kind in
                (kind, (judged.filter { $0.kind == kind }.map { $0.smallestP ?? 0 }.min() ?? 1) / shares[kind]!)
            })
            let blind = present.filter { distance[$0]! > 1 }
            if blind.isEmpty || blind.count == present.count { return shares }
            let farthest = blind.max { (distance[$0]!, $0.rawValue) < (distance[$1]!, $1.rawValue) }!
            present.remove(farthest)
        }
    }

    /// Judges a compare's checks: α is split between the kinds of check (`alphaShares`), and Holm runs within each
    /// kind at its share, so the chance that a compare with no real change fails on any check is at most `alpha`.
    /// Exact checks (p = 0 or 1: no sampling noise) spend no α; checks not judged neither. Within a kind, a test
    /// whose smallest possible p-value cannot reach the level it would be tested at is left out, with Tarone's
    /// rule: the smallest K such that at most K checks can reach share/K (McNemar's discordant counts and a
    /// sign-flip's item count say nothing about the direction of the change, so leaving them out keeps the bound).
    /// Each check's minimum detectable effect is computed at share/m, Holm's first step in its kind.
    package static func familyWise(_ checks: [MetricCheck], alpha: Double) -> [MetricCheck] {
        var out = checks
        let shares = alphaShares(checks, alpha: alpha)
        var levels: [Int: Double] = [:]
        for (kind, share) in shares {
            let members = out.indices.filter { out[$0].kind == kind && (out[$0].powerBasis.map { $0 != .exact } ?? false) }
            let k = (1...max(1, members.count)).first { k in members.filter { (out[$0].smallestP ?? 0) <= share / Double(k) }.count <= k } ?? members.count
            let testable = members.filter { (out[$0].smallestP ?? 0) <= share / Double(k) }
            for index in members {
                let reaches = testable.contains(index)
                out[index].gating = reaches
                out[index].family = reaches ? kind.family : "cannot reach \(kind.rawValue)'s share of α (too few items or discordant records)"
                if !reaches { out[index].regressionP = 1; out[index].improvementP = 1; out[index].adjustedP = nil; out[index].status = .unchanged }
            }
            let regression = Statistics.holm(testable.map { out[$0].regressionP })
            let improvement = Statistics.holm(testable.map { out[$0].improvementP })
            for (position, index) in testable.enumerated() {
                out[index].status = regression[position] < share ? .regression : (improvement[position] < share ? .improvement : .unchanged)
                out[index].adjustedP = min(regression[position], improvement[position])
                levels[index] = share / Double(max(1, testable.count))
            }
        }
        // A kind given no share (none of its checks could reach one): its checks are reported, never judged.
        for index in out.indices where shares[out[index].kind] == nil && (out[index].powerBasis.map { $0 != .exact } ?? false) {
            out[index].gating = false
            out[index].family = "cannot reach any share of α (too few items or discordant records)"
            out[index].regressionP = 1
            out[index].improvementP = 1
            out[index].adjustedP = nil
            out[index].status = .unchanged
        }
        // A check outside its kind's tests is described at the level it would have had joining them with the checks its
        // change moves too (Holm's first step over those more tests); a kind given no share, at the share it would have
        // had alone with the others.
        let judgedKinds = Set(out.filter { $0.powerBasis.map { $0 != .exact } ?? false }.map(\.kind))
        let allWeights = judgedKinds.map(\.weight).reduce(0, +)
        let gatingPerKind = Dictionary(grouping: out.filter(\.gating), by: \.kind).mapValues(\.count)
        func levelIfTested(_ kind: Kind, movesWith: Int) -> Double {
            let share = shares[kind] ?? alpha * kind.weight / max(allWeights, kind.weight)
            return share / Double((gatingPerKind[kind] ?? 0) + 1 + movesWith)
        }
        for index in out.indices {
            switch out[index].powerBasis {
            case .exact?:
                out[index].gating = false
                out[index].family = "exact (no α spent)"
                out[index].status = out[index].regressionP == 0 ? .regression : (out[index].improvementP == 0 ? .improvement : .unchanged)
                out[index].adjustedP = nil
            case nil:
                out[index].gating = false
                out[index].family = "not judged"
                out[index].status = .unchanged
                out[index].adjustedP = nil
            default: break
            }
            guard let basis = out[index].powerBasis else { continue }
            let level = levels[index] ?? levelIfTested(out[index].kind, movesWith: out[index].movesWith)
            // A ratio whose every item is unchanged (identical token counts) has no spread to plan from: nothing to test.
            if case .logRatio(let se) = basis, se == 0, out[index].delta == 0 {
                out[index].mde = nil
                out[index].level = level
                out[index].powerNote = "no item changed: nothing to test"
                continue
            }
            let mde = Statistics.minimumDetectableEffect(basis, alpha: level)
            out[index].mde = mde.isFinite ? mde : nil
            out[index].level = basis == .exact ? nil : level
            // "Cannot see" is said of the mde under the alternative, never of the data observed: a check left out because
            // too few of its items moved would be tested once a change of its mde moved them.
            if !mde.isFinite {
                out[index].powerNote = "cannot see a change of \(out[index].thresholdText) with n = \(out[index].n): "
                    + "no outcome of its test can reach the level it would be tested at"
            } else if mde > out[index].threshold {
                out[index].powerNote = out[index].cannotSee(mde: mde)
            } else if !out[index].gating, basis != .exact {
                out[index].powerNote = (out[index].smallestP ?? 0) >= 1 ? "no item changed: nothing to test"
                    : "not tested: too few items moved to reach the level it would be tested at"
            }
        }
        return out
    }

    /// `cannot see a change of 2.0 points with n = 48: 80% power needs 7.1 points`.
    func cannotSee(mde: Double) -> String {
        let needs: String
        switch powerBasis {
        case .logRatio?, .blockMeans?, .signFlip?:
            needs = String(format: "×%.2f (%+.1f%% beyond ×%.2f)", (1 + threshold) * (1 + mde), mde * 100, 1 + threshold)
        default:
            needs = String(format: "%.2f points", mde * 100)
        }
        return "cannot see a change of \(thresholdText) with n = \(n): 80% power needs \(needs)"
    }

    /// The threshold as the report writes it: `+10%` for ratios, `2.0 points` for rates.
    package var thresholdText: String {
        switch powerBasis {
        case .paired?, .signFlipDifference?: return String(format: "%.1f points", threshold * 100)
        default: break
        }
        return String(format: "+%g%%", threshold * 100)
    }
}
