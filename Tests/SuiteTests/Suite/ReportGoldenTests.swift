@testable import Detection
import Foundation
@testable import Generation
import GenerationTestSupport
@testable import Suite
import Comparison
@testable import Support
import TestSupport
import Testing

/// detection.md|json and report.md|json pinned, rendered from fixed results and records with fixed provenance.
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

    @Test func detectionJSON() async throws {
        Snapshot.assert(try JSONOutput.encode(try await detection()), named: "detection.json")
    }

    @Test func suiteMarkdownAndJSON() async throws {
        let report = SuiteReport(runID: "fixture", shard: nil, provenance: GenerationFixtures.provenance("run"), detection: try await detection(),
                                 generation: try GenerationFixtures.report("base"), files: ["detection.md", "generation.md"])
        Snapshot.assert(report.markdown, named: "report.md")
        Snapshot.assert(try JSONOutput.encode(report), named: "report.json")
    }
}
