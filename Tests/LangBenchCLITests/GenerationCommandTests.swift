@testable import BenchSupport
@testable import Detection
import Foundation
@testable import Generation
import LangBench
@testable import LangBenchCLI
@testable import Reports
import TestSupport
import Testing

/// `generate` and `run` through the entry point: each starts and stops its own llama-server (binary and
/// model from LANGBENCH_LLAMA_SERVER / LANGBENCH_MODEL or the set-up cache), as a user's run does.
@Suite(.serialized)
struct GenerationCommandTests {
    @Test func generateBothRoutesWritesEveryFile() async throws {
        let directory = try Fixture.temporaryDirectory()
        let corpus = try CommandFixtures.chatCorpus(in: directory)
        let out = directory.appendingPathComponent("gen").path
        let result = await runCommand(["generate", "--corpus", corpus, "--route", "both", "--warmup", "0", "--seed", "5",
                                       "--profile", CommandFixtures.profile, "--out", out, "--quiet"])
        #expect(result.status == .success, "\(result.stderr)")
        #expect(result.stdout.split(separator: "\n").map { $0.prefix { $0 != ":" } } == ["direct", "pivot", "wrote \(out)/generation.md"])
        for file in [GenerationOutput.itemsFile, GenerationOutput.markdownFile, GenerationOutput.jsonFile, GenerationOutput.diagnosticsFile,
                     GenerationOutput.repliesFile, GenerationOutput.recordsLog, RunPage.file] {
            #expect(CommandFixtures.exists(out, file), "\(file)")
        }
        // report.html shows each reply beside its record, as text.
        let page = try String(contentsOfFile: URL(fileURLWithPath: out).appendingPathComponent(RunPage.file).path, encoding: .utf8)
        let replies = try JSONLinesLog<ReplyRecord>.read(URL(fileURLWithPath: out).appendingPathComponent(GenerationOutput.repliesFile))
        #expect(!replies.isEmpty && replies.allSatisfy { page.contains(ReportText.html(String($0.reply.prefix(HTMLWriter.textCap)))) })
        let report = try GenerationOutput.read(out)
        #expect(report.records.count == 4, "2 items × 2 routes")
        #expect(report.settings.sampling.seed == 5 && report.settings.route == .both)
        #expect(report.settings.detection.hasPrefix("constrained+priors (builtin;"))
        #expect(report.settings.server["props_error"] == nil && report.settings.server["build_info"] != nil)
        // Diagnostics carry no message text.
        let diagnostics = try String(contentsOfFile: URL(fileURLWithPath: out).appendingPathComponent(GenerationOutput.diagnosticsFile).path, encoding: .utf8)
        #expect(!diagnostics.contains("exam") && !diagnostics.contains("Привет"))
    }

    @Test(arguments: [
        (["generate"], LangBenchCLI.ExitStatus.usage, "error: --corpus is required (e.g. --corpus Corpora/chat-prompts.tsv)"),
        (["generate", "--corpus", "x.tsv", "--route", "sideways"], .usage, "error: --route must be one of auto, direct, pivot, both, not 'sideways'"),
        (["generate", "--corpus", "x.tsv", "--request-timeout", "0"], .usage, "error: --request-timeout takes seconds in (0, 86400], not '0'"),
        (["run", "--shard", "3/2"], .usage, "error: --shard shard '3/2': expected K/N with 1 ≤ K ≤ N, e.g. 2/4"),
        (["run", "--config", "/nonexistent/bench.json", "--out", "/tmp/langbench-never"], .dataError, "error: /nonexistent/bench.json: cannot read"),
    ])
    func usageAndDataErrors(arguments: [String], status: LangBenchCLI.ExitStatus, message: String) async {
        let result = await runCommand(arguments)
        #expect(result.status == status)
        #expect(result.stderr.hasPrefix(message), "\(result.stderr)")
    }

    /// `--out` under a regular file: the run directory cannot be made. Every command exits 69 and names the path.
    @Test(arguments: ["generate", "run", "merge"])
    func anUnwritableOutExits69(command: String) async throws {
        let directory = try Fixture.temporaryDirectory()
        let blocker = directory.appendingPathComponent("file")
        try Data("x".utf8).write(to: blocker)
        let out = blocker.appendingPathComponent("out").path
        let arguments: [String]
        switch command {
        case "generate":
            arguments = ["generate", "--corpus", try CommandFixtures.chatCorpus(in: directory), "--profile", CommandFixtures.profile, "--out", out, "--quiet"]
        case "run":
            let config = directory.appendingPathComponent("bench.json")
            try #"{"detection": {"corpora": ["\#(try CommandFixtures.wordCorpus(in: directory))"], "detector": "\#(CommandFixtures.scriptDetector)"}}"#
                .write(to: config, atomically: true, encoding: .utf8)
            arguments = ["run", "--config", config.path, "--out", out, "--quiet"]
        default:
            let shard = directory.appendingPathComponent("shard").path
            let detect = await runCommand(["detect", "--corpus", try CommandFixtures.wordCorpus(in: directory), "--detector", CommandFixtures.scriptDetector,
                                           "--out", shard, "--quiet"])
            try #require(detect.status == .success, "\(detect.stderr)")
            arguments = ["merge", shard, "--out", out]
        }
        let result = await runCommand(arguments)
        #expect(result.status == .unavailable, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("error: cannot create \(out): \((out as NSString).deletingLastPathComponent) is not a directory"), "\(result.stderr)")
    }

    /// Nothing listening at --server-url: the service is unavailable (69) before any item runs.
    @Test func aServerURLWithNothingListeningExits69() async throws {
        let directory = try Fixture.temporaryDirectory()
        let corpus = try CommandFixtures.chatCorpus(in: directory)
        let result = await runCommand(["generate", "--corpus", corpus, "--server-url", "http://127.0.0.1:9", "--profile", CommandFixtures.profile,
                                       "--out", directory.appendingPathComponent("gen").path, "--quiet"])
        #expect(result.status == .unavailable, "\(result.stderr)")
        #expect(result.stderr.contains("127.0.0.1:9"), "\(result.stderr)")
    }

    @Test func runWritesTheSuiteAndResumeRedoesNothing() async throws {
        let directory = try Fixture.temporaryDirectory()
        let chat = try CommandFixtures.chatCorpus(in: directory)
        let words = try CommandFixtures.wordCorpus(in: directory, count: 10, ukrainian: 6)
        let config = directory.appendingPathComponent("bench.json")
        try """
        {"schema_version": 1, "detection": {"corpora": ["\(words)"]},
         "generation": {"corpora": ["\(chat)"], "profile": "\(CommandFixtures.profile)", "route": "auto", "warmup": 0, "seed": 3}}
        """.write(to: config, atomically: true, encoding: .utf8)
        let out = directory.appendingPathComponent("suite").path
        let first = await runCommand(["run", "--config", config.path, "--out", out, "--quiet"])
        #expect(first.status == .success, "\(first.stderr)")
        #expect(first.stdout == "wrote \(out)/report.md\n")
        for file in [SuiteReport.markdownFile, SuiteReport.jsonFile, DetectionOutput.markdownFile, GenerationOutput.markdownFile] {
            #expect(CommandFixtures.exists(out, file), "\(file)")
        }
        let records = try GenerationOutput.read(out).records

        let again = await runCommand(["run", "--config", config.path, "--out", out, "--resume", "--quiet"])
        #expect(again.status == .success, "\(again.stderr)")
        let resumed = try GenerationOutput.read(out)
        #expect(resumed.records == records, "every record was kept, none redone")
        #expect(try DetectionOutput.read(out).timings.map(\.items).allSatisfy { $0 == 0 })
        let logged = try JSONLinesLog<GenerationRecord>.read(URL(fileURLWithPath: out).appendingPathComponent(GenerationOutput.recordsLog))
        #expect(logged.count == records.count)
    }

    /// Two `--server-url` on loopback ports nothing listens on: the pool has no live server, so the run
    /// stops as a lost server does (exit 69), naming the servers by label and how to continue.
    @Test func aPoolOfDeadServersExits69() async throws {
        let directory = try Fixture.temporaryDirectory()
        let corpus = try CommandFixtures.chatCorpus(in: directory)
        let out = directory.appendingPathComponent("gen").path
        let result = await runCommand(["generate", "--corpus", corpus, "--warmup", "0", "--profile", CommandFixtures.profile, "--out", out, "--quiet",
                                       "--server-url", "http://127.0.0.1:1", "--server-url", "http://127.0.0.1:2"])
        #expect(result.status == .unavailable, "\(result.stderr)")
        #expect(result.stderr.contains("server-1, server-2") && result.stderr.contains("--resume --out \(out)"), "\(result.stderr)")
        #expect(!result.stderr.contains("127.0.0.1:1"), "labels, not URLs: \(result.stderr)")
    }

    /// A pool server whose model cannot be read is an unavailable service: exit 69, naming it.
    @Test func aPoolServerOfUnknownModelExits69() {
        let unknown = PoolModelUnknown(label: "server-2", url: "http://10.0.0.6:8080", kind: "HTTP 401")
        #expect(ErrorMapping.status(for: unknown) == .unavailable)
        #expect(ErrorMapping.message(for: unknown).hasPrefix("error: server-2 (http://10.0.0.6:8080) did not say which model it serves"))
    }

    /// A pool serving two models is bad input, like a mismatched baseline: exit 65 with the labels and models.
    @Test func aPoolServingDifferentModelsExits65() {
        let mismatch = PoolModelMismatch(models: [("server-1", "alpha"), ("server-2", "beta")])
        #expect(ErrorMapping.status(for: mismatch) == .dataError)
        #expect(ErrorMapping.message(for: mismatch).hasPrefix("error: the pool's servers serve different models: server-1 serves 'alpha', server-2 serves 'beta'"))
    }
}

