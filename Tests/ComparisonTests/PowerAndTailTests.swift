@testable import Support
import Checks
@testable import Detection
import Foundation
@testable import Generation
import GenerationTestSupport
@testable import Comparison
import TestSupport
import Testing

/// What each check can see, the tail check, one family for the verdict, and repeats as one unit.
struct PowerAndTailTests {
    func compare(_ base: GenerationReport, _ current: GenerationReport) throws -> Comparison {
        try Comparison(base: RunResults(path: "base", detection: nil, generation: base),
                       current: RunResults(path: "current", detection: nil, generation: current), thresholds: .default)
    }

    func report(_ records: [GenerationRecord], repeats: Int = 1) -> GenerationReport {
        var settings = GenerationFixtures.settings
        settings.repeats = repeats
        return GenerationReport(records: records, settings: settings, warmupRuns: 0, provenance: GenerationFixtures.provenance("tail"))
    }

    /// 300 pivot items with spread-out latencies; the current run is the same within 1%, except that the
    /// slowest 10% of items take twice as long. (With 100 items a resample holds fewer than 5% doubled items
    /// about one time in twenty, so the p95 check needs this many to reach α over its family.)
    @Test func doublingTheSlowestTenthIsATailRegressionTheMeanRatioReadsAsSmall() throws {
        let template = try #require(try GenerationFixtures.records("base").first { $0.route == .pivot && $0.outcome == .model })
        var base: [GenerationRecord] = [], current: [GenerationRecord] = []
        for i in 0..<300 {
            var record = template
            record.itemID = String(format: "t-%03d", i)
            record.totalMs = 500 * exp(0.6 * sin(Double(i) * 1.7))
            base.append(record)
            record.totalMs *= 1 + 0.01 * sin(Double(i) * 3.1)
            current.append(record)
        }
        let slowest = base.indices.sorted { base[$0].totalMs > base[$1].totalMs }.prefix(30)
        for index in slowest { current[index].totalMs *= 2 }
        let comparison = try compare(report(base), report(current))
        let mean = try #require(comparison.checks.first { $0.metric == "generation.latency" })
        let tail = try #require(comparison.checks.first { $0.metric == MetricName.slowestTenth })
        #expect(abs(mean.delta - 0.07) < 0.01 && mean.status == .unchanged)  // 0.1 · ln 2 = 0.069 in log: ×1.07
        #expect(tail.status == .regression && tail.delta > 0.5 && tail.n == 300, "\(tail)")
        #expect(comparison.markdown.contains(MetricName.slowestTenth))
    }

    @Test func fewItemsLeaveTheTailUnjudgedAndSaySo() throws {
        let base = try GenerationFixtures.report("base")
        let tail = try #require(try compare(base, base).checks.first { $0.metric == MetricName.slowestTenth && $0.key == CheckKey([.route: "direct"]) })
        #expect(tail.status == .unchanged && tail.pValue == nil && tail.mde == nil && !tail.gating)
        #expect(tail.powerNote == "cannot see a change of +10% with n = 36: fewer than 40 items, not judged")
    }

    /// Every judged check reports its minimum detectable effect; a rate check on 48 records cannot see 2 points and says so.
    /// Blind kinds are withdrawn one at a time, the farthest first: detection, just short of its share of five weights,
    /// reaches its share of three once the hopeless outcomes kind is withdrawn; withdrawn together, it had none.
    @Test func blindKindsAreWithdrawnOneAtATime() {
        func check(_ kind: MetricCheck.Kind, smallestP: Double) -> MetricCheck {
            var check = MetricCheck(metric: kind.rawValue, key: CheckKey([:]), kind: kind, polarity: .lowerIsBetter, base: 0, current: 0, delta: 0,
                                    interval: nil, pValue: nil, threshold: 0, n: 10, status: .unchanged, rule: "")
            check.powerBasis = .paired(churn: 0, n: 10, designEffect: 1)
            check.smallestP = smallestP
            return check
        }
        let shares = MetricCheck.alphaShares([check(.detection, smallestP: 0.025), check(.outcomes, smallestP: 0.5), check(.latency, smallestP: 0.001)],
                                             alpha: 0.05)
        #expect(shares[.outcomes] == nil)
        #expect(abs((shares[.detection] ?? 0) - 0.05 * 2 / 3) < 1e-12 && abs((shares[.latency] ?? 0) - 0.05 / 3) < 1e-12, "\(shares)")
    }

    @Test func everyCheckReportsWhatItCanSee() throws {
        let comparison = try compare(try GenerationFixtures.report("base"), try GenerationFixtures.report("current"))
        let nothing = "no item changed: nothing to test"
        for check in comparison.checks {
            #expect(check.mde != nil || check.powerNote?.contains("not judged") == true || check.powerNote == nothing
                        || check.powerNote == "not tested: too few items moved to reach the level it would be tested at"
                        || check.powerNote?.hasSuffix("no outcome of its test can reach the level it would be tested at") == true, "\(check.metric) \(check.key)")
            // "Cannot see" only where the mde planned under the alternative is beyond the threshold.
            if check.powerNote?.hasPrefix("cannot see") == true, let mde = check.mde { #expect(mde > check.threshold, "\(check.metric) \(check.key)") }
        }
        let served = try #require(comparison.checks.first { $0.metric == "generation.served_in_own_language" && $0.key == CheckKey([.route: "pivot"]) })
        #expect(served.status == .unchanged && served.powerNote?.hasPrefix("cannot see a change of 2.0 points with n = 48: ") == true, "\(served.powerNote ?? "")")
        #expect(comparison.markdown.contains("cannot see a change of 2.0 points with n = 48"))
        #expect(comparison.json.contains("\"mde\" : ") && comparison.json.contains("\"power_note\" : \"cannot see"))
        let tokens = try #require(comparison.checks.first { $0.metric == "generation.prompt_tokens_fixed" })
        #expect(tokens.mde == 0 && tokens.powerNote == nil && !tokens.gating)
        let generated = try #require(comparison.checks.first { $0.metric == "generation.tokens_generated" && $0.key == CheckKey([.route: "pivot"]) })
        // The fixture's pivot replies are the same tokens in both runs: nothing to test, no share of α, and it says so.
        #expect(!generated.gating && generated.mde == nil && generated.powerNote == nothing, "\(generated.powerNote ?? "")")
        #expect(comparison.alphaShares["token cost"] == nil)
    }

    /// α is split between the kinds of gating check (they add up to α) and Holm runs within each kind at its share:
    /// the split is printed, exact checks are in none of it.
    @Test func alphaIsSplitByKindAndHolmRunsWithinEach() throws {
        let comparison = try compare(try GenerationFixtures.report("base"), try GenerationFixtures.report("current"))
        let gating = comparison.checks.filter(\.gating)
        #expect(gating.count == comparison.gatingChecks && gating.count > 0 && !gating.contains { $0.metric == "generation.prompt_tokens_fixed" })
        #expect(abs(comparison.alphaShares.values.reduce(0, +) - 0.05) < 1e-12)
        #expect(comparison.alphaShares["outcomes"] == 2 * comparison.alphaShares["latency"]!)
        #expect(comparison.markdown.contains("\(gating.count) gating checks, family-wise α = 0.05 (outcomes 0.03333, latency 0.01667) (Holm within each)"))
        #expect(comparison.json.contains("\"gating_checks\" : \(gating.count)") && comparison.json.contains("\"alpha_shares\""))
        for family in Set(gating.map(\.family)) {
            let members = gating.filter { $0.family == family }
            let regression = Statistics.holm(members.map(\.regressionP)), improvement = Statistics.holm(members.map(\.improvementP))
            for (index, check) in members.enumerated() { #expect(check.adjustedP == min(regression[index], improvement[index])) }
        }
    }

    /// The same 8 new timeouts seen in both of 2 repeats are 8 items, not 16 independent pairs.
    @Test func repeatsAreOneUnitInMcNemar() throws {
        func twice(_ name: String) throws -> [GenerationRecord] {
            try GenerationFixtures.records(name).flatMap { record in [record, { var r = record; r.repeatIndex = 1; return r }()] }
        }
        let comparison = try compare(report(try twice("base"), repeats: 2), report(try twice("current"), repeats: 2))
        let timeouts = try #require(comparison.checks.first { $0.key == CheckKey([.route: "direct", .reason: "timeout"]) })
        #expect(timeouts.pValue == Statistics.mcnemarClusteredOneSided(Array(repeating: (b: 2, c: 0), count: 8)))
        #expect(timeouts.pValue! > Statistics.mcnemarExactOneSided(worse: 16, better: 0) * 10 && timeouts.rule.contains("clustered by item (48 items"))
    }

    /// The people of one language losing service is a check of its own: 8 of the fixture's 12 German speakers lose their
    /// direct reply to a timeout, and compare names that language; the headline says what the job can see.
    @Test func aLanguageLosingServiceIsCheckedAndTheHeadlineSaysWhatCanBeSeen() throws {
        let comparison = try compare(try GenerationFixtures.report("base"), try GenerationFixtures.report("current"))
        let german = try #require(comparison.checks.first { $0.metric == "generation.served_in_own_language" && $0.key == CheckKey([.route: "direct", .lang: "de"]) })
        #expect(german.status == .regression && german.gating && german.n == 12, "\(german.family) \(german.adjustedP ?? -1)")
        // Languages that did not move have too few discordant records to test and are reported, never judged.
        let english = try #require(comparison.checks.first { $0.metric == "generation.served_in_own_language" && $0.key == CheckKey([.route: "direct", .lang: "en"]) })
        #expect(!english.gating && english.status == .unchanged)
        #expect(comparison.visibility.first == "a 12-person language's service: 58.33 points (7 of 12 people); 2.0 points needs about 351 people",
                "\(comparison.visibility)")
        #expect(comparison.markdown.contains("**What this compare can see**") && comparison.json.contains("\"can_see\""))
    }

    /// A kind none of whose checks could reach its share gets none: α goes where something can be seen.
    @Test func aKindThatCannotReachItsShareGetsNone() {
        func check(_ kind: MetricCheck.Kind, smallestP: Double) -> MetricCheck {
            var check = MetricCheck(metric: "m", key: CheckKey([.route: "direct"]), kind: kind, polarity: .lowerIsBetter, base: 0, current: 0, delta: 0,
                                    interval: nil, pValue: 1, threshold: 0.02, n: 12, status: .unchanged, rule: "")
            check.powerBasis = .paired(churn: 0, n: 12, designEffect: 1)
            check.smallestP = smallestP
            return check
        }
        // Outcomes' smallest p 2⁻³ can reach no share; latency's can.
        let shares = MetricCheck.alphaShares([check(.outcomes, smallestP: 0.125), check(.latency, smallestP: 0.0005)], alpha: 0.05)
        #expect(shares == [.latency: 0.05])
        let judged = MetricCheck.familyWise([check(.outcomes, smallestP: 0.125), check(.latency, smallestP: 0.0005)], alpha: 0.05)
        #expect(judged[0].family.hasPrefix("cannot reach any share") && !judged[0].gating && judged[0].level != nil)
    }
}
