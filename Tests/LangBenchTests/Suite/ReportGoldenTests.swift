@testable import Detection
import Foundation
@testable import Generation
@testable import LangBench
import RunComparison
import TestSupport
import Testing

/// detection.md and report.md pinned, rendered from fixed results and records with fixed provenance.
struct ReportGoldenTests {
    func detection() async throws -> DetectionReport {
        // The script detector is deterministic; timings are left out (they are measured, not fixed).
        let measured = try await RunFixtures.detect(constrained: true)
        return DetectionReport(echoes: try #require(measured.detection).configs.map { var echo = $0; echo.detector = "DETECTOR"; return echo },
                               results: try measured.detectionResults.map { var result = $0; result.detector = "DETECTOR"; return result },
                               timings: [], provenance: GenerationFixtures.provenance("detect"))
    }

    @Test func detectionMarkdown() async throws {
        Snapshot.assert(try await detection().markdown, named: "detection.md")
    }

    @Test func suiteMarkdown() async throws {
        let report = SuiteReport(runID: "fixture", shard: nil, provenance: GenerationFixtures.provenance("run"), detection: try await detection(),
                                 generation: try GenerationFixtures.report("base"), files: ["detection.md", "generation.md"])
        Snapshot.assert(report.markdown, named: "report.md")
    }
}
