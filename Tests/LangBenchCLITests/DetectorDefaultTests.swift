@testable import Detection
import Foundation
@testable import Generation
import Suite
@testable import LangBenchCLI
import TestSupport
import Support
import Testing

/// `--detector` (and bench.json's `detection.detector`) is the detector of every config that names none,
/// configs from a file included; a file config naming another detector is refused, never silently kept.
struct DetectorDefaultTests {
    @Test func theDetectorFlagRunsFileConfigsThatNameNone() async throws {
        let directory = try Fixture.temporaryDirectory()
        let corpus = try CommandFixtures.wordCorpus(in: directory, count: 4, ukrainian: 2)
        let detector = try ShellDetector.write("ukrainian", in: directory, answer: ShellDetector.answering("uk"))
        let configs = try write(#"{"configs": [{"name": "a", "candidates": ["ru", "uk"]}, {"name": "b", "detector": "DETECTOR"}]}"#
            .replacingOccurrences(of: "DETECTOR", with: detector), to: directory.appendingPathComponent("configs.json"))
        let out = directory.appendingPathComponent("d").path
        let result = await runCommand(["detect", "--corpus", corpus, "--configs", configs, "--detector", detector, "--out", out, "--quiet"])
        #expect(result.status == .success, "\(result.stderr)")
        #expect(try DetectionOutput.read(out).configs.map(\.detector) == [Redaction.label(ofCommand: detector), Redaction.label(ofCommand: detector)])
        #expect(result.stdout.contains("a: accuracy 50.0%"), "\(result.stdout)")
    }

    @Test func aFileConfigNamingAnotherDetectorConflictsWithTheFlag() async throws {
        let directory = try Fixture.temporaryDirectory()
        let corpus = try CommandFixtures.wordCorpus(in: directory, count: 4, ukrainian: 2)
        let configs = try write(#"{"configs": [{"name": "a"}, {"name": "b", "detector": "builtin"}]}"#, to: directory.appendingPathComponent("configs.json"))
        let result = await runCommand(["detect", "--corpus", corpus, "--configs", configs, "--detector", "exec:/bin/false",
                                       "--out", directory.appendingPathComponent("d").path, "--quiet"])
        #expect(result.status == .usage)
        #expect(result.stderr.hasPrefix("error: --detector exec:false conflicts with config 'b' in \(configs), which names detector builtin; "
                                        + "drop one (--detector is the detector of configs that name none)\n"), "\(result.stderr)")
    }

    /// bench.json's `detection.detector` does the same for `detection.configs` (the detection half only).
    @Test func benchJSONDetectorRunsConfigsThatNameNone() async throws {
        let directory = try Fixture.temporaryDirectory()
        let corpus = try CommandFixtures.wordCorpus(in: directory, count: 4, ukrainian: 2)
        let detector = try ShellDetector.write("ukrainian", in: directory, answer: ShellDetector.answering("uk"))
        let config = try write(#"{"detection": {"corpora": ["CORPUS"], "detector": "DETECTOR", "configs": [{"name": "a", "candidates": ["ru", "uk"]}]}}"#
            .replacingOccurrences(of: "CORPUS", with: corpus).replacingOccurrences(of: "DETECTOR", with: detector),
            to: directory.appendingPathComponent("bench.json"))
        let out = directory.appendingPathComponent("r").path
        let result = await runCommand(["run", "--config", config, "--out", out, "--quiet"])
        #expect(result.status == .success, "\(result.stderr)")
        #expect(try DetectionOutput.read(out).configs.map(\.detector) == [Redaction.label(ofCommand: detector)])
    }

    @Test func benchJSONConfigNamingAnotherDetectorIsRefused() async throws {
        let directory = try Fixture.temporaryDirectory()
        let corpus = try CommandFixtures.wordCorpus(in: directory, count: 4, ukrainian: 2)
        let config = try write(#"{"detection": {"corpora": ["CORPUS"], "detector": "exec:/bin/false", "configs": [{"name": "a", "detector": "builtin"}]}}"#
            .replacingOccurrences(of: "CORPUS", with: corpus), to: directory.appendingPathComponent("bench.json"))
        let result = await runCommand(["run", "--config", config, "--out", directory.appendingPathComponent("r").path, "--quiet"])
        #expect(result.status == .dataError)
        #expect(result.stderr == "error: \(config) (detection.configs): config 'a' names detector builtin, but detection.detector is "
                + "exec:false; drop one (detection.detector is the detector of configs that name none)\n")
    }

    private func write(_ text: String, to url: URL) throws -> String {
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }
}
