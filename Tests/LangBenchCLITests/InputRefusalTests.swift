@testable import Detection
import Foundation
@testable import Generation
@testable import Corpus
import Suite
@testable import LangBenchCLI
import TestSupport
import Testing

/// Through the entry point: values that trapped, silently changed meaning
/// or exited with the wrong code are refused with the flag, file or key named.
struct InputRefusalTests {
    @Test(arguments: [
        (["detect", "--corpus", "x.tsv", "--hints", "ru=1e19"], "error: --hints 'ru=1e19': expected <lang>=<weight in (0, 1000000]>, e.g. ru=0.5"),
        (["detect", "--corpus", "x.tsv", "--hints", "ru"], "error: --hints 'ru': expected <lang>=<weight in (0, 1000000]>, e.g. ru=0.5"),
        (["identify", "--hints", "ru=-1", "привет"], "error: --hints 'ru=-1': expected <lang>=<weight in (0, 1000000]>, e.g. ru=0.5"),
        (["detect", "--corpus", "x.tsv", "--timeout", "1e300"], "error: --timeout takes seconds in (0, 86400], not '1e300'"),
        (["generate", "--corpus", "x.tsv", "--request-timeout", "1e300"], "error: --request-timeout takes seconds in (0, 86400], not '1e300'"),
        (["detect", "--corpus", "x.tsv", "--candidates", ""], "error: --candidates '' names no language; leave --candidates out for unconstrained detection"),
        (["detect", "--corpus", "x.tsv", "--candidates", " , "], "error: --candidates ' , ' names no language; leave --candidates out for unconstrained detection"),
        (["identify", "--candidates", "", "привет"], "error: --candidates names no language; leave it out for every language of the model"),
        (["detect", "--corpus", "x.tsv", "--candidates", "profile:supported + + app:"],
         "error: --candidates 'profile:supported + + app:': has an empty term; join terms with one '+', e.g. profile:supported + ru + device:en,uk"),
        (["detect", "--corpus", "x.tsv", "--hints", "ru=0.5,ru=0.3"], "error: --hints 'ru=0.5,ru=0.3': ru has two weights (0.5 and 0.3); give each language one weight"),
        (["detect", "--corpus", "x.tsv", "--candidates", "ru,uk", "--hints", "de=0.5"],
         "error: --hints 'de=0.5': config 'custom': de is not among its candidates (ru,uk), so the hint would do nothing; add de to the candidates or remove the hint"),
    ])
    func badFlagValuesAreUsageErrors(arguments: [String], message: String) async throws {
        let directory = try Fixture.temporaryDirectory()
        let corpus = try CommandFixtures.wordCorpus(in: directory)
        let result = await runCommand(arguments.map { $0 == "x.tsv" ? corpus : $0 } + (arguments[0] == "identify" ? [] : ["--out", directory.appendingPathComponent("o").path, "--quiet"]))
        #expect(result.status == .usage, "\(result.stderr)")
        #expect(result.stderr.hasPrefix(message), "\(result.stderr)")
    }

    /// A hint weight too large for Int used to trap while writing the report, after every item ran.
    @Test func aLargeWholeHintWeightFormatsWithoutTrapping() {
        let config = DetectionConfig(name: "c", detector: "builtin", candidates: .none, hints: [LanguageCode(normalised: "ru"): 1_000_000])
        #expect(config.hintsDescription == "ru=1000000")
    }

    @Test func aDirectoryGivenAsAConfigFileSaysSo() async throws {
        let directory = try Fixture.temporaryDirectory()
        let corpus = try CommandFixtures.wordCorpus(in: directory)
        let result = await runCommand(["detect", "--corpus", corpus, "--configs", directory.path, "--out", directory.appendingPathComponent("o").path, "--quiet"])
        #expect(result.status == .dataError)
        #expect(result.stderr == "error: \(directory.path): cannot read (a directory; pass a JSON file)\n")
    }

    @Test(arguments: [
        (#""concurrency": -1"#, "(generation.concurrency): must be in 1...64, not -1"),
        (#""repeat": 0"#, "(generation.repeat): must be in 1...1000, not 0"),
        (#""warmup": -3"#, "(generation.warmup): must be in 0...1000, not -3"),
        (#""translator": "deepl""#, "(generation.translator): must be llm, apertium, apertium:<url> or exec:<command>"),
    ])
    func benchJSONGetsTheFlagsRanges(setting: String, message: String) async throws {
        let directory = try Fixture.temporaryDirectory()
        let config = directory.appendingPathComponent("bench.json")
        try #"{"generation": {"corpora": ["c.tsv"], \#(setting)}}"#.write(to: config, atomically: true, encoding: .utf8)
        let result = await runCommand(["run", "--config", config.path, "--out", directory.appendingPathComponent("o").path, "--quiet"])
        #expect(result.status == .dataError)
        #expect(result.stderr == "error: \(config.path) \(message)\n", "\(result.stderr)")
    }

    @Test func anUnknownTranslatorIsRefusedBeforeAnythingRuns() async throws {
        let directory = try Fixture.temporaryDirectory()
        let out = directory.appendingPathComponent("o")
        let result = await runCommand(["generate", "--corpus", "c.tsv", "--translator", "deepl", "--out", out.path, "--quiet"])
        #expect(result.status == .usage, "\(result.status)")
        #expect(result.stderr.contains("--translator 'deepl': must be llm, apertium, apertium:<url> or exec:<command>"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }

    @Test func benchJSONWithNoConfigsIsRefused() async throws {
        let directory = try Fixture.temporaryDirectory()
        let config = directory.appendingPathComponent("bench.json")
        try #"{"detection": {"corpora": ["c.tsv"], "configs": []}}"#.write(to: config, atomically: true, encoding: .utf8)
        let result = await runCommand(["run", "--config", config.path, "--out", directory.appendingPathComponent("o").path, "--quiet"])
        #expect(result.status == .dataError)
        #expect(result.stderr == "error: \(config.path) (detection.configs): must hold at least one config (or leave it out for the defaults)\n")
    }

    @Test func corpusValidateOfAnEmptyFolderIsNotOK() async throws {
        let directory = try Fixture.temporaryDirectory()
        let result = await runCommand(["corpus", "validate", directory.path])
        #expect(result.status == .dataError)
        #expect(result.stderr == "error: no items in \(directory.path)\n")
    }

    @Test func mergeDoesNotSuggestAFlagItRejects() async throws {
        let directory = try Fixture.temporaryDirectory()
        let corpus = try CommandFixtures.wordCorpus(in: directory)
        let shard = directory.appendingPathComponent("s").path
        let detect = await runCommand(["detect", "--corpus", corpus, "--detector", CommandFixtures.scriptDetector, "--out", shard, "--quiet"])
        try #require(detect.status == .success, "\(detect.stderr)")
        let result = await runCommand(["merge", shard, shard, "--out", directory.appendingPathComponent("m").path])
        #expect(result.status == .dataError)
        #expect(result.stderr.hasPrefix("error: cannot merge: \(shard) and \(shard) both hold"), "\(result.stderr)")
        #expect(!result.stderr.contains("--allow-mismatch"))
    }
}
