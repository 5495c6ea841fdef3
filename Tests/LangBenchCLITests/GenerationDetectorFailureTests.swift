import Foundation
@testable import Generation
import Suite
@testable import LangBenchCLI
import TestSupport
import Testing

/// A detector that cannot answer in `generate` (for the message or for the model's reply) stops the run
/// with 69 naming it and its error; nothing it failed on is recorded as the model's fault (a reply
/// "detected as und"), and `--resume` finishes the run once the detector answers. Real llama-server and
/// model, real sh-script exec detectors, one English message, --warmup 0.
@Suite(.serialized)
struct GenerationDetectorFailureTests {
    @Test(.needs(.server)) func aMissingDetectorStopsTheRunWith69() async throws {
        let directory = try Fixture.temporaryDirectory()
        let out = directory.appendingPathComponent("gen").path
        let result = await runCommand(Self.generate(corpus: try Self.corpus(in: directory), detector: "exec:/nonexistent/det", out: out))
        // Refused before a server starts or anything is written.
        #expect(result.status == .unavailable, "\(result.stderr)")
        #expect(result.stderr == "error: detector: '/nonexistent/det' is not an executable file; check the exec: command\n", "\(result.stderr)")
        #expect(!CommandFixtures.exists(out, GenerationOutput.markdownFile))
    }

    /// The detector answers for the message, then dies when asked about the model's reply: the reply is
    /// not recorded as `wrong-output-language`; a resume with the detector working records it.
    @Test(.needs(.server)) func aDetectorFailingOnTheReplyStopsTheRunAndResumeFinishesIt() async throws {
        let directory = try Fixture.temporaryDirectory()
        let corpus = try Self.corpus(in: directory)
        let dying = "case \"$id\" in 1) \(ShellDetector.answering("en")) ;; *) echo 'detector broke' >&2; exit 3 ;; esac"
        let detector = try ShellDetector.write("detector", in: directory, answer: dying)
        let out = directory.appendingPathComponent("gen").path
        let stopped = await runCommand(Self.generate(corpus: corpus, detector: detector, out: out))
        #expect(stopped.status == .unavailable, "\(stopped.stderr)")
        // The kind of the end, never what the detector wrote on stderr.
        #expect(stopped.stderr.hasPrefix("error: the detector could not answer (exec:detector: the detector process exited with status 3)"),
                "\(stopped.stderr)")
        #expect(!stopped.stderr.contains("detector broke"))
        #expect(try Self.records(out).isEmpty)

        _ = try ShellDetector.write("detector", in: directory, answer: ShellDetector.answering("en"))
        let resumed = await runCommand(Self.generate(corpus: corpus, detector: detector, out: out) + ["--resume"])
        #expect(resumed.status == .success, "\(resumed.stderr)")
        let records = try GenerationOutput.read(out).records
        #expect(records.count == 1)
        #expect(records.first?.outcome == .model && records.first?.replyLang == "en", "\(String(describing: records.first))")
    }

    static func generate(corpus: String, detector: String, out: String) -> [String] {
        ["generate", "--corpus", corpus, "--route", "direct", "--warmup", "0", "--detector", detector, "--profile", CommandFixtures.profile,
         "--out", out, "--quiet"]
    }

    static func corpus(in directory: URL) throws -> String {
        let url = directory.appendingPathComponent("chat1.tsv")
        try "id\tlang\ttext\ttags\nc-en\ten\tI finally finished my exam today!\t\n".write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    /// The records log's lines (none when it is missing).
    static func records(_ out: String) throws -> [Substring] {
        let url = URL(fileURLWithPath: out).appendingPathComponent(GenerationOutput.recordsLog)
        guard FileManager.default.fileExists(atPath: url.path) else { return [] }
        return try String(contentsOf: url, encoding: .utf8).split(separator: "\n")
    }
}
