import Support
import Foundation
@testable import Generation
import GenerationTestSupport
@testable import Corpus
import TestSupport
import Testing

/// Two judges of served: Cohen's κ on known tables, every reply counted (short ones too), and the rows add up.
struct JudgeAgreementTests {
    static func pairs(both: Int, firstOnly: Int, secondOnly: Int, neither: Int) -> [(Bool, Bool)] {
        Array(repeating: (true, true), count: both) + Array(repeating: (true, false), count: firstOnly)
            + Array(repeating: (false, true), count: secondOnly) + Array(repeating: (false, false), count: neither)
    }

    @Test func kappaIsCohensOnKnownTables() throws {
        // Observed agreement 0.7, chance agreement 0.5·0.6 + 0.5·0.4 = 0.5: κ = 0.2 / 0.5.
        let kappa = try #require(JudgeAgreement.kappa(Self.pairs(both: 20, firstOnly: 5, secondOnly: 10, neither: 15)))
        #expect(abs(kappa - 0.4) < 1e-12)
        #expect(JudgeAgreement.kappa(Self.pairs(both: 7, firstOnly: 0, secondOnly: 0, neither: 3)) == 1)
        // Opposite verdicts on a balanced table: −1.
        #expect(JudgeAgreement.kappa(Self.pairs(both: 0, firstOnly: 5, secondOnly: 5, neither: 0)) == -1)
        // Both judges always say the same one thing: chance agreement is 1 and κ is undefined, not 1; one judge always
        // says one thing: κ would read 0 at 12 of 13 agreeing, so none is given.
        #expect(JudgeAgreement.kappa(Self.pairs(both: 9, firstOnly: 0, secondOnly: 0, neither: 0)) == nil)
        #expect(JudgeAgreement.kappa(Self.pairs(both: 12, firstOnly: 1, secondOnly: 0, neither: 0)) == nil)
        #expect(JudgeAgreement.kappa([]) == nil)
        let interval = try #require(JudgeAgreement.kappaInterval(Self.pairs(both: 20, firstOnly: 5, secondOnly: 10, neither: 15)))
        #expect(interval.low < 0.4 && 0.4 < interval.high && interval.low > -1 && interval.high <= 1)
    }

    @Test func everyReplyIsCountedAndDisagreementsAreUncertain() throws {
        let base = try GenerationFixtures.records("base").filter { $0.fallbackReason != .crisisProtocol }
        // The second judge disagrees on every third model reply; short replies are judged like the rest.
        var records = base
        var flipped = 0
        for index in records.indices where records[index].outcome == .model && records[index].notServedReason != NotServed.degenerateOutput {
            let first = records[index].servedInOwnLanguage == true
            let disagree = index % 3 == 0
            if disagree { flipped += 1 }
            records[index].servedBySecondJudge = disagree ? !first : first
        }
        for index in records.indices where records[index].servedBySecondJudge == nil { records[index].servedBySecondJudge = false }
        let agreement = try #require(JudgeAgreement(records: records, first: "builtin recognizer x", second: "exec:lingua", variant: nil))
        let all = agreement.rows.filter { $0.lang == "all" }
        #expect(all.map(\.uncertain).reduce(0, +) == flipped)
        #expect(all.map(\.n).reduce(0, +) == base.count)
        #expect(all.map(\.judged).reduce(0, +) == base.filter { $0.outcome == .model && $0.notServedReason != NotServed.degenerateOutput }.count)
        let short = base.filter { $0.outcome == .model && $0.notServedReason != NotServed.degenerateOutput && ($0.replyTokens ?? 0) < JudgeAgreement.shortTokens }
        #expect(all.map(\.short).reduce(0, +) == short.count)
        for row in agreement.rows {
            #expect(row.servedFirst == records.filter { $0.route == row.route && (row.lang == "all" || $0.lang.identifier == row.lang) && $0.servedInOwnLanguage == true }.count)
        }
        Snapshot.assert(MarkdownWriter.render(agreement.table), named: "judge-agreement.md")
        // With one judge there is no agreement to report.
        #expect(JudgeAgreement(records: base, first: "builtin", second: nil, variant: nil) == nil)
    }

    /// What the κ interval covers at the default suite's dozen replies per route and language: pairs drawn from two
    /// judges saying served 70% of the time with a true κ of 0.6, 400 samples of 12 and of 48. The label says
    /// "bootstrap 2.5–97.5%", not "95% CI", because at 12 it covers far less.
    @Test(.needs(.simulation)) func theKappaIntervalsCoverageIsWhatTheLabelSays() {
        // P(both) 0.616, P(first only) = P(second only) 0.084, P(neither) 0.216: marginals 0.7, κ = (0.832 − 0.58)/0.42.
        func coverage(n: Int, seed: UInt64) -> (covered: Int, defined: Int) {
            var generator = SplitMix64(seed: seed)
            var covered = 0, defined = 0
            for _ in 0..<400 {
                let pairs = (0..<n).map { _ -> (Bool, Bool) in
                    let u = Double(generator.next() % 1_000_000) / 1_000_000
                    return u < 0.616 ? (true, true) : u < 0.7 ? (true, false) : u < 0.784 ? (false, true) : (false, false)
                }
                guard JudgeAgreement.kappa(pairs) != nil, let interval = JudgeAgreement.kappaInterval(pairs, resamples: 500) else { continue }
                defined += 1
                if interval.low <= 0.6 && 0.6 <= interval.high { covered += 1 }
            }
            return (covered, defined)
        }
        let twelve = coverage(n: 12, seed: 1), fortyEight = coverage(n: 48, seed: 2)
        print("κ bootstrap 2.5–97.5% interval, true κ 0.6: covers \(twelve.covered) of \(twelve.defined) at n = 12, "
              + "\(fortyEight.covered) of \(fortyEight.defined) at n = 48")
        #expect(Double(twelve.covered) / Double(twelve.defined) < 0.93)
        #expect(Double(fortyEight.covered) / Double(fortyEight.defined) > Double(twelve.covered) / Double(twelve.defined))
    }
}
