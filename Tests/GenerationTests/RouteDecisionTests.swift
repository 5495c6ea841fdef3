import Support
import Foundation
@testable import Generation
import GenerationTestSupport
import Corpus
import Testing

/// The route decision table over the committed baseline's real records: per language, the route the runtime support
/// check picks, both routes' figures on the same people, and a flag where the other route does better.
struct RouteDecisionTests {
    static func baseline() throws -> GenerationReport {
        try GenerationOutput.read(PipelineFixture.repository.appendingPathComponent("Reports/baseline/\(GenerationOutput.jsonFile)").path)
    }

    @Test func eachLanguageHasTheRuntimeRouteAndBothRoutesFigures() throws {
        let report = try Self.baseline()
        let rows = Dictionary(uniqueKeysWithValues: report.routeDecisions.map { ($0.lang, $0) })
        // The profile supports de (not ru); kk's packs are not installed on the simulated device.
        #expect(rows["de"]?.runtime == "direct" && rows["ru"]?.runtime == "pivot" && rows["kk"]?.runtime == "fallback (translation pack not installed)")
        for row in rows.values {
            let records = report.records.filter { $0.lang.identifier == row.lang && $0.fallbackReason != .crisisProtocol && $0.variant == report.settings.variants?.first?.name }
            #expect(row.direct.n == records.filter { $0.route == .direct }.count && row.pivot.n == records.filter { $0.route == .pivot }.count)
            #expect(row.direct.served == records.filter { $0.route == .direct && $0.servedInOwnLanguage == true }.count)
            #expect(row.servedOnlyDirect - row.servedOnlyPivot == row.direct.served - row.pivot.served, "\(row.lang): every item ran both routes")
        }
        // Russian is served on both routes; its direct replies cost well under half the pivot's, and the table says so.
        let ru = try #require(rows["ru"])
        #expect(ru.flag?.hasPrefix("direct costs less (×0.") == true && ru.servedP == 1, "\(ru)")
        // English takes the same prompt on both routes (the in-run control): nothing to flag.
        #expect(rows["en"]?.flag == nil)
    }

    /// Where the route the runtime does not pick serves significantly more, the flag says by how many and with what p.
    @Test func theOtherRouteServingMoreIsFlagged() throws {
        var report = try Self.baseline()
        let before = try #require(report.routeDecisions.first { $0.lang == "bg" })
        #expect(before.flag?.contains("serves more") != true, "4 of 12 one way is not significant: \(before)")
        for index in report.records.indices where report.records[index].lang.identifier == "bg" && report.records[index].route == .direct {
            report.records[index].servedInOwnLanguage = true
        }
        let after = try #require(report.routeDecisions.first { $0.lang == "bg" })
        #expect(after.direct.served == 12 && after.servedOnlyDirect == 12 && after.servedOnlyPivot == 0)
        #expect(after.flag?.hasPrefix("direct serves more (+12 of 12, p < 0.001)") == true, "\(after.flag ?? "")")
        #expect(report.routeDecisionTable.rows.count == report.routeDecisions.count)
    }
}

/// A variant that changed only the translator ran the pivot alone: the decision table gets its pivot per language and the
/// variants section its stages beside the reference's, on the messages both answered.
struct PivotOnlyVariantTests {
    static func report() throws -> GenerationReport {
        var settings = GenerationFixtures.settings
        settings.variants = ["llm", "apertium"].map { .init(name: $0, description: "", model: "gemma-3-270m-q4_k_m.gguf", server: 1,
                                                             fingerprint: String(repeating: $0 == "llm" ? "a" : "b", count: 64)) }
        let base = try GenerationFixtures.records("base")
        let llm = base.map { var record = $0; record.variant = "llm"; return record }
        let apertium = base.filter { $0.route == .pivot && $0.lang.identifier != "en" }.map { var record = $0; record.variant = "apertium"; return record }
        return GenerationReport(records: llm + apertium, settings: settings, warmupRuns: 0, provenance: GenerationFixtures.provenance("engines"))
    }

    @Test func theDecisionTableAndTheStagesShowTheOtherEngine() throws {
        let report = try Self.report()
        #expect(report.pivotOnlyVariants == ["apertium"])
        let ru = try #require(report.routeDecisions.first { $0.lang == "ru" })
        #expect(ru.otherPivots?["apertium"] == ru.pivot)  // the same records relabelled: the same figures
        #expect(report.routeDecisions.first { $0.lang == "en" }?.otherPivots?["apertium"]?.n == 0)
        let stages = try #require(report.variantStageTable)
        let rows = stages.rows.map { $0.prefix(3).map(\.display) }
        #expect(rows.filter { $0[0] == "ru" }.map { $0[1] + " " + $0[2] } == ["llm translate-in", "llm generate", "llm translate-out",
                                                                            "apertium translate-in", "apertium generate", "apertium translate-out"])
        #expect(!rows.contains { $0[0] == "en" })
        #expect(report.variantsMarkdown.contains("`apertium` changed only the pivot's translator"))
    }
}
