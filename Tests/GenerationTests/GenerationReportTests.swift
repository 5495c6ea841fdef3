@testable import Support
import Checks
import Foundation
@testable import Generation
import GenerationTestSupport
import Corpus
import TestSupport
import Testing

/// The generation report's figures and files, from fixed records.
struct GenerationReportTests {
    @Test func goldenFiles() throws {
        let report = try GenerationFixtures.report("base")
        Snapshot.assert(report.markdown, named: "generation.md")
        Snapshot.assert(CSVWriter.render(report.summaryTable), named: "generation-summary.csv")
        Snapshot.assert(CSVWriter.render(report.itemsTable), named: "generation-items.csv")
        Snapshot.assert(try JSONOutput.encode(report), named: "generation.json")
    }

    /// A report written before the degenerate-output rule (rows without `degenerate_output`) is read, its
    /// rows counting none, so `merge` and `compare` still take it.
    @Test func aReportWithoutDegenerateCountsIsRead() throws {
        let baseline = PipelineFixture.repository.appendingPathComponent("Reports/baseline/\(GenerationOutput.jsonFile)")
        func dropCounts(_ value: Any) -> Any {
            if let object = value as? [String: Any] {
                return object.filter { !($0.key == "degenerate_output" && $0.value is NSNumber) }.mapValues(dropCounts)
            }
            return (value as? [Any]).map { $0.map(dropCounts) } ?? value
        }
        let older = dropCounts(try JSONSerialization.jsonObject(with: Data(contentsOf: baseline)))
        let directory = try Fixture.temporaryDirectory()
        let file = directory.appendingPathComponent(GenerationOutput.jsonFile)
        try JSONSerialization.data(withJSONObject: older).write(to: file)
        let log = GenerationOutput.recordsLog
        try FileManager.default.copyItem(at: baseline.deletingLastPathComponent().appendingPathComponent(log), to: directory.appendingPathComponent(log))
        #expect(try !String(contentsOf: file, encoding: .utf8).contains("\"degenerate_output\":0"))
        let report = try GenerationOutput.read(file.path)
        #expect(!report.summary.isEmpty && report.summary.allSatisfy { $0.degenerateOutput == 0 })
        #expect(!report.served.isEmpty && report.served.allSatisfy { $0.degenerateOutput == 0 })
    }

    @Test func oneDenominatorWithCrisisItemsCountedApart() throws {
        let report = try GenerationFixtures.report("base")
        #expect(report.crisisRecords == 4)
        let direct = try #require(report.summary(route: .direct))
        #expect(direct.n == 48)
        let reasons = report.fallbacks.filter { $0.route == .direct }
        #expect(!reasons.isEmpty && reasons.allSatisfy { $0.n == direct.n })
        #expect(!report.fallbacks.contains { $0.reason == .crisisProtocol })
        // The rates in the reason table add up to the summary's fallback rate.
        #expect(abs(reasons.map(\.rate).reduce(0, +) - direct.fallbackRate) < 1e-12)
    }

    @Test func servedInOwnLanguageIsJudgedAgainstTheTrueLanguage() throws {
        let report = try GenerationFixtures.report("base")
        // Bulgarian: 8 of 12 detected as Russian. The pivot answers all 12 "faithfully" (fidelity 100%)
        // but serves only the 4 detected right.
        let bg = try #require(report.served.first { $0.route == .pivot && $0.lang == "bg" })
        #expect(bg.fidelity == 1.0)
        #expect(bg.served == 4 && bg.misdetected == 8 && bg.n == 12)
        let ru = try #require(report.served.first { $0.route == .direct && $0.lang == "ru" })
        #expect(ru.served == 6 && ru.wrongOutputLanguage == 6 && ru.misdetected == 0)
    }

    @Test func englishControlIsReported() throws {
        let report = try GenerationFixtures.report("base")
        let control = try #require(report.control)
        #expect(control.ratio.pairs == 12)
        #expect(control.verdict == .consistent)
        #expect(report.markdown.contains("English A/A control"))
        // A control run where the pivot always runs second on a warm cache reads 30% faster: flagged.
        var biased = try GenerationFixtures.records("base")
        for index in biased.indices where biased[index].lang.identifier == "en" && biased[index].route == .pivot {
            biased[index].totalMs *= 0.7
        }
        let flagged = GenerationReport(records: biased, settings: GenerationFixtures.settings, warmupRuns: 0, provenance: GenerationFixtures.provenance("x"))
        #expect(flagged.control?.verdict == .biased)
        #expect(flagged.markdown.contains("EXCLUDES 1.0"))
    }

    @Test func theHeadlineRatioLeavesOutTheEnglishControlAndSaysWhatItCovers() throws {
        var records = try GenerationFixtures.records("base")
        let before = try #require(GenerationReport(records: records, settings: GenerationFixtures.settings, warmupRuns: 0,
                                                   provenance: GenerationFixtures.provenance("x")).ratio(.total))
        // Slowing only the English pivot moves the control, never the headline: English is not in `all`.
        for index in records.indices where records[index].lang.identifier == "en" && records[index].route == .pivot {
            records[index].totalMs *= 5
        }
        let report = GenerationReport(records: records, settings: GenerationFixtures.settings, warmupRuns: 0, provenance: GenerationFixtures.provenance("x"))
        let all = try #require(report.ratio(.total))
        #expect(all == before)
        let english = try #require(report.ratio(.total, slice: "lang=en"))
        #expect(all.pairs == report.ratios.filter { $0.metric == .total && $0.slice.hasPrefix("lang=") && $0.slice != "lang=en" }.map(\.pairs).reduce(0, +))
        #expect(english.pairs == 12)
        #expect(report.markdown.contains("the `all` row's \(all.pairs) pairs leave out the English A/A control"))
    }

    @Test func perTokenFiguresSplitTheReplyThePersonReadsFromEveryGeneratedToken() throws {
        let records = try GenerationFixtures.records("base")
        let pivot = try #require(records.first { $0.route == .pivot && $0.translateOut != nil && $0.outcome == .model })
        let replyTokens = try #require(pivot.translateOut?.completionTokens)
        #expect(pivot.replyTokens == replyTokens)
        #expect(pivot.msPerReplyToken == pivot.totalMs / Double(replyTokens))
        // Every generated token includes the translations, so per generated token is the smaller figure.
        #expect(try #require(pivot.completionTokens) > replyTokens)
        #expect(try #require(pivot.msPerToken) < (try #require(pivot.msPerReplyToken)))
        let direct = try #require(records.first { $0.route == .direct && $0.outcome == .model })
        #expect(direct.replyTokens == direct.generate?.completionTokens)
        let report = try GenerationFixtures.report("base")
        #expect(report.ratio(.msPerReplyToken) != nil)
        #expect(report.markdown.contains("ms per reply token") && report.markdown.contains("ms per generated token"))
    }

    /// The control is judged on total, TTFT and TPOT, each interval at 1 − 0.05/3, and worded as the range of bias it
    /// is compatible with, never as "unbiased".
    @Test func aConsistentControlSaysWhatBiasItIsCompatibleWith() throws {
        let control = try #require(try GenerationFixtures.report("base").control)
        #expect(control.components.map(\.name) == ["total", "TTFT", "TPOT"])
        let ci = try #require(control.ratio.ci)
        #expect(control.verdict == .consistent && ci.low <= 1 && ci.high >= 1)
        #expect(control.sentence.contains(String(format: "total %+.0f…%+.0f%%", (ci.low - 1) * 100, (ci.high - 1) * 100)))
        #expect(!control.sentence.contains("unbiased"))
    }

    /// Prompt processing slower on the pivot only: the total may still contain 1.0, TTFT does not, and the run is biased.
    @Test func aBiasInOneComponentIsFoundWhereItIs() throws {
        var records = try GenerationFixtures.records("base")
        for index in records.indices where records[index].lang.identifier == "en" && records[index].route == .pivot {
            records[index].ttftMs = records[index].ttftMs.map { $0 * 1.5 }
        }
        let report = GenerationReport(records: records, settings: GenerationFixtures.settings, warmupRuns: 0, provenance: GenerationFixtures.provenance("x"))
        let control = try #require(report.control)
        #expect(control.verdict == .biased && control.ttft!.ci!.low > 1 && control.sentence.contains("EXCLUDES 1.0"))
    }

    @Test func noIntervalBelowTenValues() throws {
        #expect(LatencySummary([1, 2, 3])?.p50CI == nil)
        #expect(LatencySummary((1...10).map(Double.init))?.p50CI != nil)
        let report = try GenerationFixtures.report("base")
        #expect(report.ratios.filter { $0.pairs < Statistics.minimumForInterval }.allSatisfy { $0.ci == nil })
    }

    @Test func tpotIsDecodeTimePerTokenAfterTheFirst() {
        #expect(StageTiming.tpot(total: 130, ttft: 30, tokens: 11) == 10)
        #expect(StageTiming.tpot(total: 130, ttft: 30, tokens: 1) == nil)
        #expect(StageTiming.tpot(total: 130, ttft: nil, tokens: 5) == nil)
    }
}
