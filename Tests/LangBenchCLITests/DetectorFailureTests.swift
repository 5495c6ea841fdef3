@testable import Detection
import Foundation
@testable import Generation
import Suite
import Support
@testable import LangBenchCLI
import TestSupport
import Testing

/// A detector that fails most items is unavailable (69) and the report says so,
/// instead of "accuracy 0.0%" with exit 0.
struct DetectorFailureTests {
    /// A program that is not there is refused before any work (69), naming it.
    @Test func aMissingExecDetectorIsRefusedUpFront() async throws {
        let directory = try Fixture.temporaryDirectory()
        let corpus = try CommandFixtures.wordCorpus(in: directory, count: 6, ukrainian: 3)
        let out = directory.appendingPathComponent("d").path
        let result = await runCommand(["detect", "--corpus", corpus, "--detector", "exec:/nonexistent/detector --token sk-abc123", "--out", out, "--quiet"])
        #expect(result.status == .unavailable, "\(result.stderr)")
        #expect(result.stderr == "error: detector: '/nonexistent/detector' is not an executable file; check the exec: command\n", "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test func aDetectorThatDiesOnEveryItemIsAnErrorNotZeroAccuracy() async throws {
        let directory = try Fixture.temporaryDirectory()
        let corpus = try CommandFixtures.wordCorpus(in: directory, count: 6, ukrainian: 3)
        let out = directory.appendingPathComponent("d").path
        let result = await runCommand(["detect", "--corpus", corpus, "--detector", "exec:/bin/false", "--out", out, "--quiet"])
        #expect(result.status == .unavailable, "\(result.stderr)")
        #expect(result.stderr.contains("error: config 'unconstrained': 6 of 6 items failed in the detector (e.g. exec:false: the detector process exited with status 1"), "\(result.stderr)")
        let markdown = try String(contentsOfFile: URL(fileURLWithPath: out).appendingPathComponent(DetectionOutput.markdownFile).path, encoding: .utf8)
        #expect(markdown.contains("**⚠️ config `unconstrained`: 6 of 6 items failed in the detector"))
    }

    /// `run` says the same and exits 69 (its detection half only, no server involved).
    @Test func runWithAFailingDetectorExits69() async throws {
        let directory = try Fixture.temporaryDirectory()
        let corpus = try CommandFixtures.wordCorpus(in: directory, count: 6, ukrainian: 3)
        let config = directory.appendingPathComponent("bench.json")
        try #"{"detection": {"corpora": ["\#(corpus)"], "detector": "exec:/bin/false"}}"#.write(to: config, atomically: true, encoding: .utf8)
        let out = directory.appendingPathComponent("r").path
        let result = await runCommand(["run", "--config", config.path, "--out", out, "--quiet"])
        #expect(result.status == .unavailable, "\(result.stderr)")
        #expect(result.stderr.contains("items failed in the detector (e.g. exec:false:"), "\(result.stderr)")
        #expect(CommandFixtures.exists(out, SuiteReport.markdownFile))
    }

    /// An exec detector whose best answer is none of the candidates ignored its constraint: each such
    /// item is a detector error, and a config with more than half of them fails (69), as with unreadable answers.
    @Test func answersOutsideTheCandidatesAreDetectorErrors() async throws {
        let (result, out, detector) = try await Self.detect(answering: ShellDetector.answering("ja"), candidates: "ru,en,uk,bg")
        #expect(result.status == .unavailable, "\(result.stderr)")
        #expect(result.stderr.contains("error: config 'custom': 6 of 6 items failed in the detector (e.g. \(Redaction.label(ofCommand: detector)): answered 'ja', "
                                       + "which is not among the candidates ru,en,uk,bg)"), "\(result.stderr)")
        let items = try String(contentsOf: out.appendingPathComponent(DetectionOutput.itemsFile), encoding: .utf8)
        #expect(items.split(separator: "\n").dropFirst().allSatisfy { $0.contains(",error,") && $0.hasSuffix("which is not among the candidates ru,en,uk,bg\"") },
                "\(items)")
    }

    /// A few such answers are counted in the report and on stderr; the run still measures the config.
    @Test func aFewAnswersOutsideTheCandidatesAreCounted() async throws {
        let answer = "case \"$id\" in 1|2) \(ShellDetector.answering("ja")) ;; *) \(ShellDetector.answering("ru")) ;; esac"
        let (result, out, detector) = try await Self.detect(answering: answer, candidates: "ru,uk")
        #expect(result.status == .success, "\(result.stderr)")
        #expect(result.stderr.contains("warning: config 'custom': 2 of 6 items failed in the detector (e.g. \(Redaction.label(ofCommand: detector)): answered 'ja', "
                                       + "which is not among the candidates ru,uk); they count as wrong"), "\(result.stderr)")
        let markdown = try String(contentsOf: out.appendingPathComponent(DetectionOutput.markdownFile), encoding: .utf8)
        #expect(markdown.contains("⚠️ config `custom`: 2 of 6 items failed in the detector"))
    }

    /// `detect` of six one-word items with a shell detector running `answer` for each request.
    private static func detect(answering answer: String, candidates: String) async throws -> (CommandResult, URL, String) {
        let directory = try Fixture.temporaryDirectory()
        let corpus = try CommandFixtures.wordCorpus(in: directory, count: 6, ukrainian: 3)
        let detector = try ShellDetector.write("detector", in: directory, answer: answer)
        let out = directory.appendingPathComponent("d")
        let result = await runCommand(["detect", "--corpus", corpus, "--detector", detector, "--candidates", candidates, "--out", out.path, "--quiet"])
        return (result, out, detector)
    }
}
