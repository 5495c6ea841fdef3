@testable import Support
@testable import Detection
import Foundation
@testable import Generation
import Corpus
@testable import Suite
@testable import LangBenchCLI
import ByteIO
@testable import Backend
import TestSupport
import Testing

/// `generate` and `run` through the entry point: each starts and stops its own llama-server (binary and
/// model from LANGBENCH_LLAMA_SERVER / LANGBENCH_MODEL or the set-up cache), as a user's run does.
@Suite(.serialized)
struct GenerationCommandTests {
    @Test(.needs(.server)) func generateBothRoutesWritesEveryFile() async throws {
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
    @Test(.needs(.server), arguments: ["generate", "run", "merge"])
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

    @Test(.needs(.server)) func runWritesTheSuiteAndResumeRedoesNothing() async throws {
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
        // `run` detects with the seed config, unconstrained and the oracle: their records too are kept, none redone.
        #expect(resumed.settings.configNames == GenerationSetup.defaultConfigNames)
        #expect(logged.count == records.count * 3 && Set(logged) == Set(resumed.allRecords))
    }

    /// `generate --configs` with two configs and `--oracle`: every item is detected with each; a config that detects
    /// the language an earlier one did reuses its requests (no second request, no diagnostics) and says so; one that
    /// detects another language makes its own; the funnel's stages add up and the oracle names what detection lost.
    @Test(.needs(.server)) func generateDetectsWithEveryConfigAndSharesIdenticalRequests() async throws {
        let directory = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let corpus = directory.appendingPathComponent("chat.tsv")
        try """
            id\tlang\ttext
            bg-1\tbg\tЗдравей! Как мина денят ти? Аз току-що се прибрах от работа.
            ru-1\tru\tПривет! Как прошёл твой день? Я только что вернулся с работы.
            en-1\ten\tHi! I just got home from work and I'm finally relaxing.

            """.write(to: corpus, atomically: true, encoding: .utf8)
        let configs = directory.appendingPathComponent("configs.json")
        try #"{"configs": [{"name": "seed", "candidates": "profile:supported + app:ru + device:en,uk", "hints": {"ru": 0.5, "en": 0.35}}, {"name": "open"}]}"#
            .write(to: configs, atomically: true, encoding: .utf8)
        let out = directory.appendingPathComponent("gen")
        let result = await runCommand(["generate", "--corpus", corpus.path, "--configs", configs.path, "--oracle", "--route", "pivot", "--warmup", "0",
                                       "--seed", "5", "--profile", CommandFixtures.profile, "--out", out.path, "--quiet"])
        #expect(result.status == .success, "\(result.stderr)")
        let report = try GenerationOutput.read(out.path)
        #expect(report.settings.configNames == ["seed", "open", "oracle"])
        #expect(report.records.count == 3 && report.configRecords.count == 6, "3 items × 1 route, for each of three configs")
        let byKey = Dictionary(grouping: report.allRecords, by: { "\($0.itemID) \($0.route.rawValue)" })
        let bulgarian = try #require(byKey["bg-1 pivot"])
        #expect(bulgarian.first { $0.config == nil }?.detectedLang != "bg", "the seed's candidates have no Bulgarian")
        #expect(bulgarian.first { $0.config == "oracle" }?.detectedLang == "bg")
        var shared = 0
        for record in report.configRecords where record.shared == true {
            shared += 1
            // A shared record is the earlier config's measurement: the same detected language, the same timing.
            let earlier = try #require(byKey["\(record.itemID) \(record.route.rawValue)"]?.first { $0.shared != true && $0.detectedLang == record.detectedLang })
            #expect(earlier.totalMs == record.totalMs && earlier.promptTokens == record.promptTokens && earlier.config != record.config)
        }
        #expect(shared >= 3, "ru and en are detected alike by every config")
        #expect(report.configRecords.contains { $0.shared != true }, "a config that detects Bulgarian makes its own requests")
        let funnel = try #require(report.funnel)
        #expect(funnel.shared == shared && funnel.rows.allSatisfy { $0.stages.values.reduce(0, +) == $0.n })
        let all = funnel.rows.filter { $0.lang == "all" }
        #expect(all.map(\.config) == ["seed", "open", "oracle"])
        #expect(all.first?.lostToDetection == (all.last?.served ?? 0) - (all.first?.served ?? 0))
        // Shared records made no request, so they have no diagnostics; the replies log holds one reply per record.
        let events = try JSONLinesLog<DiagnosticEvent>.read(out.appendingPathComponent(GenerationOutput.diagnosticsFile))
        let sharedKeys = Set(report.configRecords.filter { $0.shared == true }.map { "\($0.itemID) \($0.config ?? "")" })
        #expect(!events.contains { sharedKeys.contains("\($0.itemID) \($0.config ?? "")") })
        let replies = try JSONLinesLog<ReplyRecord>.read(out.appendingPathComponent(GenerationOutput.repliesFile))
        #expect(Set(replies.map(\.key)) == Set(report.allRecords.map(\.key)))
    }

    /// `--judge`: a second judge reads every model reply; the report gives both verdicts and the replies they disagree
    /// on. The script detector calls every Cyrillic reply Russian, so it disagrees with the built-in judge on Ukrainian.
    /// Without `--judge` the report says one judge decided.
    @Test(.needs(.server)) func aSecondJudgeReadsEveryReplyAndTheReportSaysWhereTheyDisagree() async throws {
        let directory = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let corpus = directory.appendingPathComponent("chat.tsv")
        try """
            id\tlang\ttext
            uk-1\tuk\tПривіт! Як минув твій день? Я щойно повернувся з роботи.
            uk-2\tuk\tЗнову не можу заснути. Думки про завтрашню зустріч не дають спокою.
            ru-1\tru\tПривет! Как прошёл твой день? Я только что вернулся с работы.
            en-1\ten\tHi! I just got home from work and I'm finally relaxing.

            """.write(to: corpus, atomically: true, encoding: .utf8)
        let out = directory.appendingPathComponent("gen")
        let result = await runCommand(["generate", "--corpus", corpus.path, "--judge", CommandFixtures.scriptDetector, "--route", "direct",
                                       "--warmup", "0", "--seed", "5", "--profile", CommandFixtures.profile, "--out", out.path, "--quiet"])
        #expect(result.status == .success, "\(result.stderr)")
        let report = try GenerationOutput.read(out.path)
        #expect(report.settings.secondJudge == Redaction.label(ofCommand: CommandFixtures.scriptDetector))
        #expect(report.records.allSatisfy { $0.servedBySecondJudge != nil })
        // A degenerate reply is read by neither judge (its seeded text differs between CPU builds).
        for record in report.records where record.outcome == .model && record.notServedReason != NotServed.degenerateOutput {
            let expected = record.lang.identifier == "en" ? "en" : "ru"
            #expect(record.secondJudgeLang == expected, "the script detector's answer for \(record.itemID)")
            #expect(record.servedBySecondJudge == (record.lang.identifier != "uk"))
        }
        let judges = try #require(report.judges)
        let all = try #require(judges.rows.first { $0.lang == "all" })
        let disagree = report.records.filter { $0.outcome == .model && ($0.servedInOwnLanguage == true) != ($0.servedBySecondJudge == true) }
        #expect(all.n == 4 && all.uncertain == disagree.count && all.servedSecond == report.records.filter { $0.servedBySecondJudge == true }.count)
        let markdown = try String(contentsOf: out.appendingPathComponent(GenerationOutput.markdownFile), encoding: .utf8)
        #expect(markdown.contains("Two judges of served") && !markdown.contains("Served is judged by one judge"))

        let one = directory.appendingPathComponent("one")
        let single = await runCommand(["generate", "--corpus", corpus.path, "--route", "direct", "--warmup", "0", "--seed", "5",
                                       "--profile", CommandFixtures.profile, "--out", one.path, "--quiet"])
        #expect(single.status == .success, "\(single.stderr)")
        let oneReport = try GenerationOutput.read(one.path)
        #expect(oneReport.judges == nil && oneReport.records.allSatisfy { $0.servedBySecondJudge == nil })
        #expect(try String(contentsOf: one.appendingPathComponent(GenerationOutput.markdownFile), encoding: .utf8).contains("Served is judged by one judge"))
    }

    /// The generation half names configs that must exist (65, naming the key and the name, before anything runs); the
    /// oracle cannot come first, nor can another config take its name.
    @Test func generationConfigsThatCannotRunAreRefused() async throws {
        let directory = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let chat = try CommandFixtures.chatCorpus(in: directory), words = try CommandFixtures.wordCorpus(in: directory)
        // A suite with a detection half: the refusal comes before it runs, so nothing is measured and thrown away.
        for (configs, message) in [(#"["constrained+priors", "nosuch"]"#, "(generation.configs): no detection config is named 'nosuch'"),
                                   (#"["oracle", "unconstrained"]"#, "the oracle can only follow it"),
                                   (#"["unconstrained", "unconstrained"]"#, "(generation.configs): names 'unconstrained' twice")] {
            let config = directory.appendingPathComponent("bench.json")
            try """
            {"schema_version": 1, "detection": {"corpora": ["\(words)"]},
             "generation": {"corpora": ["\(chat)"], "profile": "\(CommandFixtures.profile)", "configs": \(configs)}}
            """.write(to: config, atomically: true, encoding: .utf8)
            let out = directory.appendingPathComponent("suite")
            let result = await runCommand(["run", "--config", config.path, "--out", out.path, "--quiet"])
            #expect(result.status == .dataError && result.stderr.contains(message), "\(configs): \(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent(GenerationOutput.recordsLog).path), "nothing ran")
            #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("detection.json").path), "the detection half did not run")
        }
        let file = directory.appendingPathComponent("configs.json")
        try #"{"configs": [{"name": "a"}, {"name": "oracle", "candidates": ["ru"]}]}"#.write(to: file, atomically: true, encoding: .utf8)
        let result = await runCommand(["generate", "--corpus", chat, "--configs", file.path, "--profile", CommandFixtures.profile,
                                       "--out", directory.appendingPathComponent("gen").path, "--quiet"])
        #expect(result.status == .dataError && result.stderr.contains("'oracle' names the config that takes the item's true language"), "\(result.stderr)")
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

    /// An APy answering an error status on its pair list is an unavailable service like any other that cannot be used:
    /// 69, not the 70 of a bug (APy cannot be made to answer 500 on demand; the error it would raise is built here).
    @Test func anAPyAnsweringAnErrorExits69() {
        let error = ApertiumError.from(status: 500, body: Data(#"{"explanation": "Internal Server Error"}"#.utf8), url: "http://127.0.0.1:2737/listPairs")
        #expect(ErrorMapping.status(for: error) == .unavailable)
        #expect(ErrorMapping.message(for: error) == "error: HTTP 500 from apertium at http://127.0.0.1:2737/listPairs")
    }

    /// A pool serving two models is bad input, like a mismatched baseline: exit 65 with the labels and models.
    @Test func aPoolServingDifferentModelsExits65() {
        let mismatch = PoolModelMismatch(models: [("server-1", "alpha"), ("server-2", "beta")])
        #expect(ErrorMapping.status(for: mismatch) == .dataError)
        #expect(ErrorMapping.message(for: mismatch).hasPrefix("error: the pool's servers serve different models: server-1 serves 'alpha', server-2 serves 'beta'"))
    }
}

