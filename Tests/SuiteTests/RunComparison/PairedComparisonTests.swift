@testable import Support
import Checks
@testable import Detection
import Foundation
@testable import Generation
import GenerationTestSupport
@testable import Corpus
@testable import Suite
@testable import Comparison
import Provenance
import TestSupport
import Testing

/// `compare` on fixed generation records: paired verdicts, Holm, refusals, golden outputs.
struct PairedComparisonTests {
    func compare(_ base: GenerationReport, _ current: GenerationReport, allowMismatch: Bool = false) throws -> Comparison {
        try Comparison(base: RunResults(path: "base", detection: nil, generation: base),
                       current: RunResults(path: "current", detection: nil, generation: current), thresholds: .default, allowMismatch: allowMismatch)
    }

    @Test func aRunAgainstItselfIsNoChange() throws {
        let base = try GenerationFixtures.report("base")
        let comparison = try compare(base, base)
        #expect(comparison.regressions.isEmpty && comparison.improvements.isEmpty)
        let latency = try #require(comparison.checks.first { $0.metric == "generation.latency" && $0.key == CheckKey([.route: "pivot"]) })
        #expect(abs(latency.delta) < 1e-12 && latency.interval?.low == 1 && latency.interval?.high == 1)
    }

    @Test func slowerPivotAndTimeoutsAreRegressionsWithLostPairsCounted() throws {
        let comparison = try compare(try GenerationFixtures.report("base"), try GenerationFixtures.report("current"))
        let pivot = try #require(comparison.checks.first { $0.metric == "generation.latency" && $0.key == CheckKey([.route: "pivot"]) })
        #expect(pivot.status == .regression)
        let direct = try #require(comparison.checks.first { $0.metric == "generation.latency" && $0.key == CheckKey([.route: "direct"]) })
        #expect(direct.lost == 8 + 12)  // 8 new German timeouts + 12 Russian/Bulgarian fallbacks in both runs
        let timeouts = try #require(comparison.checks.first { $0.key == CheckKey([.route: "direct", .reason: "timeout"]) })
        #expect(timeouts.status == .regression)
        #expect(timeouts.pValue == Statistics.mcnemarExactOneSided(worse: 8, better: 0))
        #expect(timeouts.adjustedP! >= timeouts.pValue!)  // Holm within the outcomes' share of α
        let served = try #require(comparison.checks.first { $0.metric == "generation.served_in_own_language" && $0.key == CheckKey([.route: "direct"]) })
        #expect(served.status == .regression)
        // The per-token cost of the direct route did not change: no TPOT verdict there.
        #expect(comparison.checks.first { $0.metric == "generation.tpot" && $0.key == CheckKey([.route: "direct"]) }?.status == .unchanged)
    }

    @Test func fewPairsAreNotJudged() throws {
        let records = try GenerationFixtures.records("base").filter { $0.lang.identifier == "de" && $0.itemID < "cp-de-06" }
        let report = GenerationReport(records: records, settings: GenerationFixtures.settings, warmupRuns: 0, provenance: GenerationFixtures.provenance("few"))
        let comparison = try compare(report, report)
        let latency = try #require(comparison.checks.first { $0.metric == "generation.latency" })
        #expect(latency.interval == nil && latency.status == .unchanged && latency.rule.contains("not judged"))
    }

    @Test func everySettingsDifferenceIsNamed() throws {
        let base = try GenerationFixtures.report("base")
        var settings = GenerationFixtures.settings
        settings.server["threads"] = "1"
        settings.sampling.seed = 7
        settings.repeats = 2
        settings.cachePolicy = .warmPrefix
        let other = try GenerationFixtures.report("base", settings: settings)
        #expect {
            try compare(base, other)
        } throws: { error in
            let text = "\(error)"
            return ["server threads differs: 2 vs 1", "seed differs: 42 vs 7", "repeats differs: 1 vs 2", "cache policy differs: cold vs warm-prefix"]
                .allSatisfy(text.contains)
        }
        let allowed = try compare(base, other, allowMismatch: true)
        #expect(allowed.mismatches.contains("server threads differs: 2 vs 1"))
        #expect(allowed.markdown.contains("mismatch allowed: server threads differs: 2 vs 1"))
        // A shard's item subset is a different item set.
        let shard = GenerationReport(records: base.records.filter { $0.lang.identifier == "en" }, settings: GenerationFixtures.settings,
                                     warmupRuns: 0, provenance: GenerationFixtures.provenance("shard"))
        #expect(throws: ComparisonError.self) { try compare(base, shard) }
    }

    @Test func holmMatchesTheTextbook() {
        // Holm (1979): sorted p 0.01, 0.02, 0.03, 0.04 with m = 4 → 0.04, 0.06, 0.06, 0.06.
        let adjusted = Statistics.holm([0.03, 0.01, 0.04, 0.02])
        for (value, expected) in zip(adjusted, [0.06, 0.04, 0.06, 0.06]) { #expect(abs(value - expected) < 1e-12) }
        #expect(Statistics.holm([]) == [])
    }

    @Test func goldenFiles() throws {
        let comparison = try compare(try GenerationFixtures.report("base"), try GenerationFixtures.report("current"))
        Snapshot.assert(comparison.markdown, named: "compare-generation.md")
        Snapshot.assert(comparison.json, named: "compare-generation.json")
        Snapshot.assert(comparison.junit, named: "compare-generation.junit.xml")
        Snapshot.assert(HTMLPage.dataSection(comparison.html), named: "compare-generation.html-data.html")
    }

    /// An A/A in four interleaved blocks where the machine was 1.6× slower while the current side ran
    /// two of them: items alone see a regression, blocks and items together see drift. A real 1.5×
    /// slowdown in every block is still caught with blocks.
    @Test func driftInSomeBlocksIsNotARegressionButASlowdownInEveryBlockIs() throws {
        let base = try GenerationFixtures.report("base")
        let shards = try (1...4).map { try Shard("\($0)/4") }
        func current(blocks: Bool, _ factor: (_ block: Int) -> Double) -> (GenerationReport, GenerationReport) {
            var records = base.records
            for index in records.indices {
                let block = shards.firstIndex { $0.contains(records[index].itemID) }!
                let noise = 1 + 0.02 * sin(Double(index))  // small item-to-item spread
                records[index].totalMs *= factor(block) * noise
            }
            var a = base, b = GenerationReport(records: records, settings: base.settings, warmupRuns: base.warmupRuns, provenance: base.provenance)
            if blocks { a.provenance.blocks = shards.map(\.description); b.provenance.blocks = shards.map(\.description).reversed() }
            return (a, b)
        }
        func latency(_ runs: (GenerationReport, GenerationReport)) throws -> MetricCheck {
            try #require(try compare(runs.0, runs.1).checks.first { $0.metric == "generation.latency" && $0.key == CheckKey([.route: "pivot"]) })
        }
        let drift: (Int) -> Double = { $0 < 2 ? 1.6 : 1 }
        let itemsOnly = try latency(current(blocks: false, drift))
        #expect(itemsOnly.status == .regression && itemsOnly.rule.contains("bootstrap over items"))
        let withBlocks = try latency(current(blocks: true, drift))
        #expect(withBlocks.status == .unchanged && withBlocks.rule.contains("Student's t on the means of the 4 blocks"))
        #expect(withBlocks.interval!.high - withBlocks.interval!.low > itemsOnly.interval!.high - itemsOnly.interval!.low)
        #expect(try latency(current(blocks: true) { _ in 1.5 }).status == .regression)
    }

    /// Runs with variants are compared variant by variant: only the variant whose records got slower is named.
    @Test func runsWithVariantsAreComparedVariantByVariant() throws {
        func labelled(_ name: String, as variant: String) throws -> [GenerationRecord] {
            try GenerationFixtures.records(name).map { var record = $0; record.variant = variant; return record }
        }
        let base = GenerationReport(records: try labelled("base", as: "a") + labelled("base", as: "b"), settings: GenerationFixtures.settings,
                                    warmupRuns: 0, provenance: GenerationFixtures.provenance("base"))
        let current = GenerationReport(records: try labelled("base", as: "a") + labelled("current", as: "b"), settings: GenerationFixtures.settings,
                                       warmupRuns: 0, provenance: GenerationFixtures.provenance("current"))
        let comparison = try compare(base, current)
        #expect(comparison.checks.first { $0.metric == "generation.latency" && $0.key == CheckKey([.variant: "b", .route: "pivot"]) }?.status == .regression)
        #expect(comparison.checks.first { $0.metric == "generation.latency" && $0.key == CheckKey([.variant: "a", .route: "pivot"]) }?.status == .unchanged)
        #expect(comparison.regressions.allSatisfy { $0.key[.variant] == "b" })
    }

    /// Per-language served checks: rows that cannot reach significance (no discordant records) do not dilute the
    /// family (Tarone), so six Russian records gained out of six discordant is a finding, not lost among empty rows.
    @Test func perLanguageServedChecksCountOnlyTestableRows() throws {
        let base = try GenerationFixtures.report("base")
        var records = base.records
        for index in records.indices where records[index].lang.identifier == "ru" && records[index].route == .direct
            && records[index].fallbackReason != .crisisProtocol {
            records[index].servedInOwnLanguage = true
        }
        let current = GenerationReport(records: records, settings: base.settings, warmupRuns: 0, provenance: base.provenance)
        let checks = GenerationComparer.servedByLanguage(base: base, current: current, thresholds: .default)
        let ru = try #require(checks.first { $0.key == CheckKey([.route: "direct", .lang: "ru"]) })
        #expect(ru.pValue == Statistics.mcnemarExactOneSided(worse: 6, better: 0) && ru.adjustedP == ru.pValue && ru.status == .improvement)
        #expect(checks.count > 4 && checks.filter { $0.family == ru.family }.count == 1)
        #expect(checks.filter { $0.key != ru.key }.allSatisfy { $0.status == .unchanged && $0.family.hasSuffix("(too few discordant records to test)") })
    }
}
