import Foundation
import LangBench
import Testing
import TestSupport
@testable import LangBenchCLI

/// Issue #13 class 5: a detector that fails most items is unavailable (69) and the report says so,
/// instead of "accuracy 0.0%" with exit 0.
struct DetectorFailureTests {
    @Test func aMissingExecDetectorIsAnErrorNotZeroAccuracy() async throws {
        let directory = try Fixture.temporaryDirectory()
        let corpus = try CommandFixtures.wordCorpus(in: directory, count: 6, ukrainian: 3)
        let out = directory.appendingPathComponent("d").path
        let result = await runCommand(["detect", "--corpus", corpus, "--detector", "exec:/nonexistent/detector", "--out", out, "--quiet"])
        #expect(result.status == .unavailable, "\(result.stderr)")
        #expect(result.stderr.contains("error: config 'unconstrained': 6 of 6 items failed in the detector (e.g. exec:/nonexistent/detector:"), "\(result.stderr)")
        let markdown = try String(contentsOfFile: URL(fileURLWithPath: out).appendingPathComponent(DetectionOutput.markdownFile).path, encoding: .utf8)
        #expect(markdown.contains("**⚠️ config `unconstrained`: 6 of 6 items failed in the detector"))
    }

    /// `run` says the same and exits 69 (its detection half only, no server involved).
    @Test func runWithAFailingDetectorExits69() async throws {
        let directory = try Fixture.temporaryDirectory()
        let corpus = try CommandFixtures.wordCorpus(in: directory, count: 6, ukrainian: 3)
        let config = directory.appendingPathComponent("bench.json")
        try #"{"detection": {"corpora": ["\#(corpus)"], "detector": "exec:/nonexistent/detector"}}"#.write(to: config, atomically: true, encoding: .utf8)
        let out = directory.appendingPathComponent("r").path
        let result = await runCommand(["run", "--config", config.path, "--out", out, "--quiet"])
        #expect(result.status == .unavailable, "\(result.stderr)")
        #expect(result.stderr.contains("items failed in the detector (e.g. exec:/nonexistent/detector:"), "\(result.stderr)")
        #expect(CommandFixtures.exists(out, SuiteReport.markdownFile))
    }
}
