import Support
import Checks
import Foundation
import Suite
import LangBenchCLI
import Backend
import TestSupport
import Testing

/// LangBench as a team outside its checkout meets it: installed, pointed at a suite of their own, from any directory.
@Suite(.serialized) struct NewcomerTests {
    let scratch: URL

    init() throws {
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("langbench-newcomer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    }

    @Test func initWritesASuiteThatLoadsAndNeverOverwrites() async throws {
        defer { try? FileManager.default.removeItem(at: scratch) }
        let suite = scratch.appendingPathComponent("suite")
        let result = await runCommand(["init", suite.path])
        #expect(result.status == .success, "\(result.stderr)")
        for file in SuiteTemplate.files { #expect(CommandFixtures.exists(suite.path, file), "\(file)") }
        let config = try BenchConfig.load(suite.appendingPathComponent("bench.json").path)
        #expect(config.generation?.profile == suite.path + "/profile.json")
        #expect(config.detection?.configs?.map(\.name) == ["unconstrained", "constrained", "constrained+priors"])
        // Drawn from the authored corpora: the languages asked for, no crisis item.
        let chat = try String(contentsOf: suite.appendingPathComponent("corpora/chat.tsv"), encoding: .utf8).split(separator: "\n")
        #expect(chat.count == 1 + SuiteTemplate.chatLanguages.count * SuiteTemplate.chatItemsPerLanguage)
        #expect(!chat.contains { $0.contains("crisis") })
        let detection = try String(contentsOf: suite.appendingPathComponent("corpora/detection.tsv"), encoding: .utf8).split(separator: "\n")
        #expect(detection.count == 1 + SuiteTemplate.detectionLanguages.count * SuiteTemplate.detectionItemsPerLanguage)
        // Its thresholds file is one `compare` reads.
        #expect(try Thresholds.named(suite.appendingPathComponent("thresholds.json").path) == .default)

        let profile = suite.appendingPathComponent("profile.json")
        try Data("{}".utf8).write(to: profile)
        let again = await runCommand(["init", suite.path])
        #expect(again.status == .usage)
        #expect(again.stderr.contains(suite.path + "/bench.json"), "\(again.stderr)")
        #expect(try String(contentsOf: profile, encoding: .utf8) == "{}")
    }

    /// `init` writes all of the suite or none of it: a file where its `corpora` folder goes leaves nothing behind.
    @Test func initThatCannotWriteEverythingWritesNothing() async throws {
        defer { try? FileManager.default.removeItem(at: scratch) }
        let suite = scratch.appendingPathComponent("blocked")
        try FileManager.default.createDirectory(at: suite, withIntermediateDirectories: true)
        try Data("a file".utf8).write(to: suite.appendingPathComponent("corpora"))
        let result = await runCommand(["init", suite.path])
        #expect(result.status != .success)
        #expect(result.stderr.contains("corpora"), "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: suite.path) == ["corpora"])
    }

    /// `scripts/install --prefix=` (empty) and a prefix a file stands in the way of are refused with what to do.
    @Test(.needs(.child)) func installRefusesAnEmptyOrBlockedPrefix() throws {
        defer { try? FileManager.default.removeItem(at: scratch) }
        let blocked = scratch.appendingPathComponent("file")
        try Data().write(to: blocked)
        for (argument, code, message) in [("--prefix=", Int32(64), "--prefix= needs a directory"),
                                          ("--prefix=\(blocked.path)/sub", 73, "cannot create the --prefix directory")] {
            let result = try Shell.run("/bin/bash", [CommandFixtures.path("scripts/install"), argument, "--binary", try LangBenchExecutable.path()],
                                       in: scratch, environment: ProcessInfo.processInfo.environment)
            #expect(result.status == code && result.stderr.contains(message), "\(argument): \(result.stderr)")
        }
    }

    /// The reusable action's workflow runs `Examples/app-suite`: it stays what `init` writes (re-create it with
    /// `rm -r Examples/app-suite && langbench init Examples/app-suite`).
    @Test func theExampleSuiteIsWhatInitWrites() throws {
        defer { try? FileManager.default.removeItem(at: scratch) }
        let example = CommandFixtures.repository.appendingPathComponent("Examples/app-suite")
        for file in try SuiteTemplate.files(resources: CommandFixtures.repository) {
            let committed = try String(contentsOf: example.appendingPathComponent(file.path), encoding: .utf8)
            #expect(committed == file.contents, "Examples/app-suite/\(file.path) differs from what init writes")
        }
    }

    @Test func aProfileNoConfigNamesIsNotRead() async throws {
        defer { try? FileManager.default.removeItem(at: scratch) }
        let corpus = try CommandFixtures.wordCorpus(in: scratch)
        let missing = scratch.appendingPathComponent("no-such-profile.json").path
        let plain = await runCommand(["detect", "--corpus", corpus, "--candidates", "ru,uk", "--profile", missing,
                                      "--out", scratch.appendingPathComponent("plain").path, "--quiet"])
        #expect(plain.status == .success, "\(plain.stderr)")
        let named = await runCommand(["detect", "--corpus", corpus, "--candidates", "profile:supported + ru", "--profile", missing,
                                      "--out", scratch.appendingPathComponent("named").path, "--quiet"])
        #expect(named.status == .dataError)
        #expect(named.stderr.contains(missing), "\(named.stderr)")
    }

    /// Install into a temporary prefix, `init` a suite in an empty directory outside the checkout (HOME and the working
    /// directory elsewhere too), run it against the real llama-server and model, lengthen a prompt in the suite's
    /// profile, run again, and `compare`: the verdict names what the edit cost. The installed binary is the debug build
    /// (`--binary`): what is tested is the install's layout and the tool's behaviour outside its checkout.
    @Test(.needs(.child)) func theInstalledToolRunsASuiteOfItsOwnFromAnyDirectory() async throws {
        defer { try? FileManager.default.removeItem(at: scratch) }
        let prefix = scratch.appendingPathComponent("prefix"), home = scratch.appendingPathComponent("home"), work = scratch.appendingPathComponent("work")
        for directory in [home, work] { try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true) }
        let install = try Shell.run("/bin/bash", [CommandFixtures.path("scripts/install"), "--prefix", prefix.path, "--binary", try LangBenchExecutable.path()],
                                    in: work, environment: ProcessInfo.processInfo.environment)
        try #require(install.status == 0, "\(install.stderr)")

        let backend = BackendPaths.resolve(environment: ProcessInfo.processInfo.environment)
        let environment = ["PATH": prefix.path + "/bin:/usr/local/bin:/usr/bin:/bin", "HOME": home.path,
                           "LANGBENCH_LLAMA_SERVER": backend.server, "LANGBENCH_MODEL": backend.model]
        let langbench = { (arguments: [String], directory: URL) throws -> Shell.Result in
            try Shell.run(prefix.path + "/bin/langbench", arguments, in: directory, environment: environment)
        }
        let version = try langbench(["--version"], work)
        #expect(version.stdout.contains("resources: \(prefix.path)/share/langbench\n"), "\(version.stdout)")
        #expect(!version.stdout.contains("commit: unknown"), "\(version.stdout)")

        let created = try langbench(["init", "suite"], work)
        try #require(created.status == 0, "\(created.stderr)")
        let suite = work.appendingPathComponent("suite")
        // Inside the suite's directory with its default config, then from its parent naming the file.
        let first = try langbench(["run", "--out", "../runs/a", "--quiet"], suite)
        try #require(first.status == 0, "\(first.stderr)")

        try Self.lengthenInstructions(in: suite.appendingPathComponent("profile.json"))
        let second = try langbench(["run", "--config", "suite/bench.json", "--out", "runs/b", "--quiet"], work)
        try #require(second.status == 0, "\(second.stderr)")

        let verdict = try langbench(["compare", "runs/a", "runs/b", "--thresholds", "suite/thresholds.json", "--latency", "skip"], work)
        #expect(verdict.status == 1, "\(verdict.stdout)\(verdict.stderr)")
        #expect(verdict.stdout.contains("generation.prompt_tokens_fixed"), "\(verdict.stdout)")
        #expect(FileManager.default.fileExists(atPath: work.appendingPathComponent("runs/a/report.html").path))
        #expect(!FileManager.default.fileExists(atPath: home.appendingPathComponent(".cache").path), "nothing written into HOME")
    }
}

extension NewcomerTests {
    /// What the reusable action's verdict step runs (`action.yml`: `scripts/ci-regression` with `LANGBENCH_CI_REPO`), on
    /// another repository: a git repository holding an `init` suite, whose head commit lengthens the profile's prompts.
    /// One installed langbench runs both revisions' suites in interleaved blocks on one server; the job fails with the
    /// prompt-token regression named. (The action's GitHub-only steps — caches, comment, upload — are not run here.)
    @Test(.needs(.child)) func theActionsJobJudgesAnotherRepositorysPullRequest() async throws {
        defer { try? FileManager.default.removeItem(at: scratch) }
        let prefix = scratch.appendingPathComponent("prefix"), repository = scratch.appendingPathComponent("app")
        try FileManager.default.createDirectory(at: repository, withIntermediateDirectories: true)
        let environment = ProcessInfo.processInfo.environment
        let install = try Shell.run("/bin/bash", [CommandFixtures.path("scripts/install"), "--prefix", prefix.path, "--binary", try LangBenchExecutable.path()],
                                    in: scratch, environment: environment)
        try #require(install.status == 0, "\(install.stderr)")
        let git = { (arguments: [String]) throws in
            let result = try Shell.run("/usr/bin/env", ["git", "-c", "user.name=app", "-c", "user.email=app@localhost"] + arguments, in: repository,
                                       environment: environment)
            try #require(result.status == 0, "git \(arguments): \(result.stderr)")
        }
        try git(["init", "--quiet"])
        let created = try Shell.run(prefix.path + "/bin/langbench", ["init", "langbench"], in: repository, environment: environment)
        try #require(created.status == 0, "\(created.stderr)")
        try git(["add", "-A"])
        try git(["commit", "--quiet", "-m", "base"])
        try Self.lengthenInstructions(in: repository.appendingPathComponent("langbench/profile.json"))
        try git(["commit", "--quiet", "-am", "longer instructions"])

        var job = environment
        job["LANGBENCH_CI_REPO"] = repository.path
        job["LANGBENCH_CI_SUITE"] = "langbench/bench.json"
        job["LANGBENCH_CI_THRESHOLDS"] = "langbench/thresholds.json"
        job["LANGBENCH_CI_BIN"] = prefix.path + "/bin/langbench"
        job["LANGBENCH_CI_BASE"] = "HEAD~1"
        job["LANGBENCH_CI_BLOCKS"] = "2"
        let verdict = try Shell.run("/bin/bash", [CommandFixtures.path("scripts/ci-regression")], in: scratch, environment: job)
        #expect(verdict.status == 1, "\(verdict.stdout)\(verdict.stderr)")
        #expect(verdict.stdout.contains("generation.prompt_tokens_fixed"), "\(verdict.stdout)")
        #expect(verdict.stdout.contains("all of it for the A/B (no baseline to compare detection with)"), "\(verdict.stdout)")
        let runs = try FileManager.default.contentsOfDirectory(atPath: repository.appendingPathComponent("Reports").path)
        #expect(runs.count == 1 && runs[0].hasPrefix("ci-"), "\(runs)")
    }
}

extension NewcomerTests {
    /// The edit a team makes to its prompts: every language's reply instructions one sentence longer.
    static func lengthenInstructions(in profileFile: URL) throws {
        var profile = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: profileFile)) as? [String: Any])
        var prompts = try #require(profile["prompts"] as? [String: Any])
        var instructions = try #require(prompts["instructions"] as? [String: Any])
        let longer = " Before you reply, think about what the person said, what they may feel, and what a good friend would answer in a few warm words."
        for (language, text) in instructions { if let text = text as? String { instructions[language] = text + longer } }
        prompts["instructions"] = instructions
        profile["prompts"] = prompts
        try JSONSerialization.data(withJSONObject: profile, options: [.prettyPrinted]).write(to: profileFile)
    }
}

