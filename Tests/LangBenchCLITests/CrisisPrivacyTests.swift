import Foundation
import Generation
import LangBenchCLI
import TestSupport
import Testing

/// No crisis message's words leave the process, whoever quotes them, and a crisis message written across two of the
/// confusable languages is still found. The detector is a real child process (the script detector) whose error quotes
/// the text it was asked about; generation runs on a real llama-server that langbench starts.
struct CrisisPrivacyTests {
    static let detector = "exec:python3 \(CommandFixtures.path("Tests/DetectionTests/Fixtures/detectors/script-detector.py"))"
    static let crisisText = "I want to end my life tonight @quote"
    static let plainText = "plain words here @quote"

    static func corpus(_ rows: [(String, String, String, String)], in directory: URL) throws -> String {
        let url = directory.appendingPathComponent("corpus-\(UUID().uuidString.prefix(6)).tsv")
        try ("id\tlang\ttext\ttags\n" + rows.map { "\($0.0)\t\($0.1)\t\($0.2)\t\($0.3)" }.joined(separator: "\n") + "\n")
            .write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    /// `detect`: the crisis-tagged item's error is withheld whole; another item's error keeps its words out.
    @Test func aDetectorErrorQuotingTheTextWritesNoMessage() async throws {
        let directory = try Fixture.temporaryDirectory()
        let corpus = try Self.corpus([("c-1", "en", Self.crisisText, "crisis"), ("n-1", "en", Self.plainText, ""), ("ok-1", "en", "hello there", "")],
                                     in: directory)
        let out = directory.appendingPathComponent("det").path
        let result = await runCommand(["detect", "--corpus", corpus, "--detector", Self.detector, "--out", out])
        // A detector that failed on items exits 69 with its reports written.
        #expect(result.status == .unavailable && result.stderr.contains("error"), "\(result.stderr)")
        let written = PlantedSecretTests.decodeEntities(try MisbehavingServerTests.everyOutput(out) + result.stdout + result.stderr)
        #expect(!written.contains("end my life"), "the crisis message was written")
        let log = try String(contentsOfFile: out + "/detection-results.jsonl", encoding: .utf8)
        let csv = try String(contentsOfFile: out + "/detection-items.csv", encoding: .utf8)
        for text in [log, csv] {
            #expect(!text.contains("plain words"), "a message's words in an error column")
            // The detector's error is recorded by its kind; the crisis-tagged item's is withheld whole.
            #expect(text.contains("answered an error") && text.contains("crisis-flagged message"), "\(text)")
        }
    }

    /// `generate`: a detector that fails on a crisis message stops the run (69) without quoting it on stderr.
    @Test(.needs(.server)) func aDetectorFailingOnACrisisMessageStopsTheRunWithoutItsWords() async throws {
        let directory = try Fixture.temporaryDirectory()
        let corpus = try Self.corpus([("c-1", "en", Self.crisisText, "crisis")], in: directory)
        let out = directory.appendingPathComponent("gen").path
        let result = await runCommand(["generate", "--corpus", corpus, "--profile", CommandFixtures.profile, "--route", "direct", "--warmup", "0",
                                       "--detector", Self.detector, "--out", out])
        #expect(result.status == .unavailable, "\(result.stderr)")
        #expect(result.stderr.contains("crisis-flagged message"), "\(result.stderr)")
        let written = try MisbehavingServerTests.everyOutput(out) + result.stdout + result.stderr
        #expect(!written.contains("end my life"))
    }

    /// A Ukrainian writing a Russian phrase, untagged: flagged, answered by the crisis reply, never by the model, and its
    /// words nowhere in the run's outputs.
    @Test(.needs(.server)) func aCodeSwitchedCrisisMessageGetsTheCrisisReply() async throws {
        let directory = try Fixture.temporaryDirectory()
        let text = "мені так погано, не хочу жить більше"
        let corpus = try Self.corpus([("uk-1", "uk", text, ""), ("en-1", "en", "I finally finished my exam today!", "")], in: directory)
        let out = directory.appendingPathComponent("gen").path
        let result = await runCommand(["generate", "--corpus", corpus, "--profile", CommandFixtures.profile, "--route", "both", "--warmup", "0",
                                       "--out", out, "--quiet"])
        #expect(result.status == .success, "\(result.stderr)")
        let records = try GenerationOutput.read(out).records.filter { $0.itemID == "uk-1" }
        #expect(!records.isEmpty && records.allSatisfy { $0.fallbackReason == .crisisProtocol }, "\(records.map(\.fallbackReason))")
        let written = PlantedSecretTests.decodeEntities(try MisbehavingServerTests.everyOutput(out) + result.stdout + result.stderr)
        #expect(!written.contains("не хочу жить"))
    }
}
