import Support
@testable import Checks
import Testing

/// One error budget per compare: α split between the kinds of check present, Holm within each kind, exact
/// checks spending none.
struct FamilyWiseTests {
    static func check(_ kind: MetricCheck.Kind, regressionP: Double, basis: Statistics.PowerBasis? = .logRatio(standardError: 0.05),
                      key: CheckKey = CheckKey([.route: "direct"])) -> MetricCheck {
        var check = MetricCheck(metric: "m.\(kind.rawValue)", key: key, kind: kind, polarity: .lowerIsBetter, base: 1, current: 1, delta: 0,
                                interval: nil, pValue: regressionP, threshold: 0.1, n: 100, status: .unchanged, rule: "")
        check.regressionP = regressionP
        check.powerBasis = basis
        check.smallestP = 1e-9
        return check
    }

    @Test func theSharesAreTheWeightsOfTheKindsPresentAndAddUpToAlpha() {
        let checks = [Self.check(.detection, regressionP: 1), Self.check(.latency, regressionP: 1), Self.check(.tokenCost, regressionP: 1, basis: .exact)]
        let shares = MetricCheck.alphaShares(checks, alpha: 0.05)
        #expect(Set(shares.keys) == [.detection, .latency], "an exact check spends no α")
        #expect(abs(shares[.detection]! - 0.05 * 2 / 3) < 1e-15 && abs(shares[.latency]! - 0.05 / 3) < 1e-15)
    }

    /// Latency's share is 0.05/3 ≈ 0.0167 here: p = 0.015 is a regression in its own kind, while two detection
    /// checks at 0.02 and 0.5 are not (Holm: 2 × 0.02 = 0.04 > 0.0333), however many latency checks there are.
    @Test func eachKindIsJudgedAtItsShare() {
        let judged = MetricCheck.familyWise([Self.check(.detection, regressionP: 0.02, key: CheckKey([.config: "a"])), Self.check(.detection, regressionP: 0.5, key: CheckKey([.config: "b"])),
                                             Self.check(.latency, regressionP: 0.015)], alpha: 0.05)
        #expect(judged.map(\.status) == [.unchanged, .unchanged, .regression])
        #expect(judged.map(\.family) == ["gating: detection", "gating: detection", "gating: latency"])
    }

    @Test func anExactCheckIsARegressionExactlyWhenItsCountRoseBeyondTheThreshold() {
        let judged = MetricCheck.familyWise([Self.check(.tokenCost, regressionP: 0, basis: .exact), Self.check(.tokenCost, regressionP: 1, basis: .exact)],
                                            alpha: 0.05)
        #expect(judged.map(\.status) == [.regression, .unchanged])
        #expect(judged.allSatisfy { !$0.gating && $0.family == "exact (no α spent)" && $0.adjustedP == nil })
    }

    /// Tarone: a test whose smallest possible p-value cannot reach its level spends nothing and says why.
    @Test func aTestThatCannotReachItsLevelIsLeftOutAndSaysSo() {
        var blind = Self.check(.outcomes, regressionP: 0.5)
        blind.smallestP = 0.25
        let judged = MetricCheck.familyWise([blind, Self.check(.outcomes, regressionP: 0.001, key: CheckKey([.route: "pivot"]))], alpha: 0.05)
        // It says why: "cannot see" only when its mde under the alternative is beyond the threshold, else "not tested".
        let note = judged[0].powerNote ?? ""
        #expect(!judged[0].gating && judged[0].status == .unchanged)
        #expect(note.hasPrefix("not tested: too few items moved") || (note.hasPrefix("cannot see") && (judged[0].mde ?? .infinity) > judged[0].threshold), "\(note)")
        #expect(judged[1].gating && judged[1].status == .regression)
    }
}
