import Foundation
import Generation
import Suite
import Comparison
import TestSupport
import Testing

/// The facts a run's report.md and page open with, over the committed baseline (eleven detection configs, both routes).
struct HeadlineTests {
    @Test func theBaselineOpensWithAtMostSixFactsEachWithItsInterval() throws {
        let run = try RunResults.load(Fixture.repository.appendingPathComponent("Reports/baseline").path)
        let report = SuiteReport(runID: "baseline", shard: nil, provenance: try #require(run.generation).provenance, detection: run.detection,
                                 generation: run.generation, files: [])
        #expect((1...6).contains(report.headline.count), "\(report.headline)")
        // Detection as the app ships it (the generation half's config), not one bullet per config.
        #expect(report.headline[0].hasPrefix("Detection as shipped (constrained+priors): "), "\(report.headline[0])")
        #expect(report.headline.filter { $0.hasPrefix("Served in their own language") }.count == 2)
        // Every fact with a figure carries its interval.
        for fact in report.headline where fact.contains("%") { #expect(fact.contains("–"), "\(fact)") }
        let markdown = report.markdown
        #expect(markdown.components(separatedBy: "## At a glance")[1].components(separatedBy: "## Route decision")[0]
            .split(separator: "\n").filter { $0.hasPrefix("- ") }.count == report.headline.count)
        // report.md is the summary: the route decision is its one table; the detail is in detection.md and generation.md.
        #expect(markdown.split(separator: "\n").filter { $0.hasPrefix("| ---") }.count == 1)
        #expect(markdown.contains("[detection.md](detection.md)") && markdown.contains("[generation.md](generation.md)"))
    }
}
