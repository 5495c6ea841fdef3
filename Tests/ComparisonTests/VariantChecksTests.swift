@testable import Support
import Checks
import Comparison
@testable import Generation
import GenerationTestSupport
import TestSupport
import Testing

/// A run's variants judged against its reference variant, as the job that made the run judges them.
struct VariantChecksTests {
    /// Two variants on the same items: the fixture's base run as the reference, its slower run with German
    /// timeouts as the second. The matrix and the flipped records come from the records, the paired checks from judging the variants.
    @Test func variantsGetAMatrixPairedChecksAndFlips() throws {
        func labelled(_ name: String, as variant: String) throws -> [GenerationRecord] {
            try GenerationFixtures.records(name).map { var record = $0; record.variant = variant; return record }
        }
        var settings = GenerationFixtures.settings
        settings.variants = [
            .init(name: "reference", description: "the base prompts", model: "gemma-3-270m-q4_k_m.gguf", server: 1, fingerprint: String(repeating: "a", count: 64)),
            .init(name: "slower", description: "a slower pivot", model: "gemma-3-270m-q4_k_m.gguf", server: 1, fingerprint: String(repeating: "b", count: 64)),
        ]
        let report = GenerationReport(records: try labelled("base", as: "reference") + labelled("current", as: "slower"), settings: settings,
                                      warmupRuns: 4, provenance: GenerationFixtures.provenance("variants")).judgingVariants()
        // The run's own tables are the reference's: the same figures as the base run alone.
        let base = try GenerationFixtures.report("base")
        #expect(report.summary == base.summary && report.served == base.served)
        let sections = try #require(report.variants)
        #expect(sections.map(\.name) == ["reference", "slower"] && sections[0].versusReference.isEmpty)
        let slower = sections[1]
        #expect(slower.summary == (try GenerationFixtures.report("current")).summary)
        #expect(slower.versusReference.first { $0.metric == "generation.latency" && $0.key == CheckKey([.route: "pivot"]) }?.status == .regression)
        #expect(slower.versusReference.first { $0.key == CheckKey([.route: "direct", .reason: "timeout"]) }?.status == .regression)
        // Flips: what the CSV marks is what the section counts.
        let flips = try #require(report.itemsTable.rows.map { $0.last! })
        #expect(flips.filter { $0 == .text("lost") }.count == slower.lost.values.reduce(0, +) && slower.lost["direct"] == 8)
        #expect(flips.filter { $0 == .text("gained") }.count == slower.gained.values.reduce(0, +))
        Snapshot.assert(report.markdown, named: "generation-variants.md")
        Snapshot.assert(CSVWriter.render(report.summaryTable), named: "generation-variants-summary.csv")
        Snapshot.assert(report.variantChart, named: "generation-variants.svg")
    }
}
