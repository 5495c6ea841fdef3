@testable import Detection
import Foundation
@testable import Generation
@testable import Corpus
@testable import Suite
@testable import LangBenchCLI
import Provenance
import TestSupport
import Testing

/// `detect`, `merge` and `compare` through the entry point, with the JSON-lines script detector and
/// the built-in recognizer: files written, stdout, and every documented exit code.
@Suite(.serialized)
struct DetectionCommandTests {
    /// `detect` over the word corpus with one config; `candidates` decides what the script detector answers.
    func detect(_ corpus: String, candidates: String = "uk,ru", out: String, extra: [String] = []) async -> CommandResult {
        await runCommand(["detect", "--corpus", corpus, "--detector", CommandFixtures.scriptDetector, "--candidates", candidates,
                          "--profile", CommandFixtures.profile, "--out", out, "--quiet"] + extra)
    }

    @Test func detectWithTheBuiltinRecognizerWritesEveryFile() async throws {
        let directory = try Fixture.temporaryDirectory()
        let out = directory.appendingPathComponent("run").path
        let corpus = CommandFixtures.path("Tests/CorpusTests/Fixtures/corpus/tiny.tsv")
        let result = await runCommand(["detect", "--corpus", corpus, "--profile", CommandFixtures.profile, "--out", out, "--quiet"])
        #expect(result.status == .success, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.map { $0.prefix { $0 != ":" } } == ["unconstrained", "constrained", "constrained+priors", "wrote \(out)/detection.md"])
        for file in [DetectionOutput.itemsFile, DetectionOutput.summaryFile, DetectionOutput.markdownFile, DetectionOutput.jsonFile,
                     DetectionOutput.resultsLog, DetectionReport.lengthChartFile, DetectionReport.confusionChartFile, RunPage.file] {
            #expect(CommandFixtures.exists(out, file), "\(file)")
        }
        let (report, results, _) = try DetectionStore.readRun(out)
        #expect(report.provenance.command == ["langbench", "detect", "--corpus", corpus, "--profile", CommandFixtures.profile, "--out", out, "--quiet"])
        #expect(results.count == 3 * 5 && results.allSatisfy { $0.detector == "builtin" })
    }

    @Test(arguments: [
        (["detect"], LangBenchCLI.ExitStatus.usage, "error: --corpus is required (e.g. --corpus Corpora/short-phrases.tsv)"),
        (["detect", "--corpus", "/nonexistent/c.tsv", "--quiet"], .dataError, "error: /nonexistent/c.tsv"),
        (["detect", "--corpus", "x.tsv", "--configs", "c.json", "--hints", "ru=1"], .usage, "error: --configs cannot be combined with --candidates or --hints"),
    ])
    func detectErrors(arguments: [String], status: LangBenchCLI.ExitStatus, message: String) async {
        let result = await runCommand(arguments)
        #expect(result.status == status)
        #expect(result.stderr.hasPrefix(message), "\(result.stderr)")
    }

    /// `--out` naming a file: the directory cannot be made. A file-system failure exits 69, not 70.
    @Test func anUnwritableOutDirectoryExits69() async throws {
        let directory = try Fixture.temporaryDirectory()
        let corpus = try CommandFixtures.wordCorpus(in: directory)
        let blocker = directory.appendingPathComponent("file")
        try Data("x".utf8).write(to: blocker)
        let result = await detect(corpus, out: blocker.appendingPathComponent("run").path)
        #expect(result.status == .unavailable)
        #expect(result.stderr.hasPrefix("error: cannot create \(blocker.path)/run: \(blocker.path) is not a directory"), "\(result.stderr)")
    }

    /// An interrupted run leaves the header, complete lines and at most one torn line (the log is written a
    /// batch at a time); `--resume` keeps the complete ones and detects only the rest.
    @Test func resumeRedoesOnlyTheMissingItems() async throws {
        let directory = try Fixture.temporaryDirectory()
        let corpus = try CommandFixtures.wordCorpus(in: directory)
        let out = directory.appendingPathComponent("run").path
        #expect(await detect(corpus, out: out).status == .success)
        let whole = try DetectionStore.readRun(out)
        let log = URL(fileURLWithPath: out).appendingPathComponent(DetectionOutput.resultsLog)
        let kept = try String(contentsOf: log, encoding: .utf8).split(separator: "\n").prefix(1 + 12)
        try (kept.joined(separator: "\n") + "\n{\"item_id\":\"ru-0").write(to: log, atomically: true, encoding: .utf8)
        try FileManager.default.removeItem(atPath: URL(fileURLWithPath: out).appendingPathComponent(DetectionOutput.jsonFile).path)

        let resumed = await detect(corpus, out: out, extra: ["--resume"])
        #expect(resumed.status == .success, "\(resumed.stderr)")
        let (report, results, _) = try DetectionStore.readRun(out)
        #expect(results == whole.results)
        #expect(report.timings.map(\.items) == [30 - 12], "only the missing items were detected")
        // Result rows after the header: ["config","detector","item_id",…].
        let logged = try String(contentsOf: log, encoding: .utf8).split(separator: "\n").dropFirst()
            .map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [Any])[2] as? String }
        #expect(logged.count == 30 && Set(logged).count == 30)
    }

    /// Resuming with other candidates, or after an item's text changed under
    /// the same id, exits 65 naming the differences instead of mixing old results into the report.
    @Test func resumeWithOtherConfigsOrChangedItemsExits65() async throws {
        let directory = try Fixture.temporaryDirectory()
        let corpus = try CommandFixtures.wordCorpus(in: directory)
        let out = directory.appendingPathComponent("run").path
        #expect(await detect(corpus, candidates: "ru,en", out: out).status == .success)
        let other = await detect(corpus, candidates: "uk,bg", out: out, extra: ["--resume"])
        #expect(other.status == .dataError)
        #expect(other.stderr.hasPrefix("error: cannot resume \(out): its results were measured differently (config 'custom': candidates ru,en (ru,en) → uk,bg (uk,bg));"),
                "\(other.stderr)")
        let edited = try String(contentsOfFile: corpus, encoding: .utf8).replacingOccurrences(of: "uk-004\tuk\tслово4", with: "uk-004\tuk\tслово4 змінено")
        try edited.write(toFile: corpus, atomically: true, encoding: .utf8)
        let changed = await detect(corpus, candidates: "ru,en", out: out, extra: ["--resume"])
        #expect(changed.status == .dataError)
        #expect(changed.stderr.contains("1 item(s) changed text, language or tags under the same id: 'uk-004'"), "\(changed.stderr)")
    }

    /// A resume log that exists but cannot be read must not be taken as empty (which would redo everything).
    @Test func anUnreadableResumeLogExits69() async throws {
        let directory = try Fixture.temporaryDirectory()
        let corpus = try CommandFixtures.wordCorpus(in: directory)
        let out = directory.appendingPathComponent("run")
        // A directory where the log should be: it exists and cannot be read as a file (permissions would not stop root).
        try FileManager.default.createDirectory(at: out.appendingPathComponent(DetectionOutput.resultsLog), withIntermediateDirectories: true)
        let result = await detect(corpus, out: out.path, extra: ["--resume"])
        #expect(result.status == .unavailable, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("error: cannot read \(out.path)/\(DetectionOutput.resultsLog)"), "\(result.stderr)")
    }

    @Test func shardsMergeIntoTheUnshardedResults() async throws {
        let directory = try Fixture.temporaryDirectory()
        let corpus = try CommandFixtures.wordCorpus(in: directory)
        let whole = directory.appendingPathComponent("whole").path
        #expect(await detect(corpus, out: whole).status == .success)
        // `detect` has no --shard: shard corpora are written by id the way `run --shard` slices them.
        let items = try CorpusLoader().load([corpus]).items
        var shards: [String] = []
        for k in 1...2 {
            let shard = try Shard("\(k)/2")
            let file = directory.appendingPathComponent("shard\(k).tsv")
            try ("id\tlang\ttext\ttags\n" + items.filter { shard.contains($0.id) }.map { "\($0.id)\t\($0.lang)\t\($0.text)\t" }.joined(separator: "\n") + "\n")
                .write(to: file, atomically: true, encoding: .utf8)
            let out = directory.appendingPathComponent("s\(k)").path
            #expect(await detect(file.path, out: out).status == .success)
            shards.append(out)
        }
        let merged = directory.appendingPathComponent("merged").path
        let result = await runCommand(["merge"] + shards + ["--out", merged])
        #expect(result.status == .success, "\(result.stderr)")
        #expect(try DetectionStore.readRun(merged).results == DetectionStore.readRun(whole).results)
        let csv = { (dir: String) in try String(contentsOfFile: URL(fileURLWithPath: dir).appendingPathComponent(DetectionOutput.itemsFile).path, encoding: .utf8) }
        #expect(try csv(merged) == csv(whole))
        let page = try String(contentsOfFile: URL(fileURLWithPath: merged).appendingPathComponent(RunPage.file).path, encoding: .utf8)
        #expect(page.contains("<title>LangBench run merged</title>") && page.contains("<section id=\"detection\">"))

        #expect(await runCommand(["merge"] + shards).status == .usage)
        let nothing = await runCommand(["merge", directory.appendingPathComponent("missing").path, "--out", merged])
        #expect(nothing.status == .dataError, "\(nothing.stderr)")
    }

    @Test func compareExitCodes() async throws {
        let directory = try Fixture.temporaryDirectory()
        let corpus = try CommandFixtures.wordCorpus(in: directory, count: 80, ukrainian: 60)
        let base = directory.appendingPathComponent("base").path, same = directory.appendingPathComponent("same").path
        let worse = directory.appendingPathComponent("worse").path, other = directory.appendingPathComponent("other").path
        #expect(await detect(corpus, out: base).status == .success)
        #expect(await detect(corpus, out: same).status == .success)
        // ru first: every Ukrainian item is called Russian — 60 broken, 20 fixed.
        #expect(await detect(corpus, candidates: "ru,uk", out: worse).status == .success)
        let smaller = try CommandFixtures.wordCorpus(in: directory, count: 40, ukrainian: 30, name: "smaller.tsv")
        #expect(await detect(smaller, out: other).status == .success)

        let pass = await runCommand(["compare", base, same, "--format", "json"])
        #expect(pass.status == .success, "\(pass.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(pass.stdout.utf8)) as? [String: Any])
        #expect(json["verdict"] as? String == "pass")

        let regression = await runCommand(["compare", base, worse])
        #expect(regression.status == .checkFailed)
        // The config overall, Ukrainian alone (60 items ≥ 40), and the cost-weighted error (uk→ru errors weigh 3).
        #expect(regression.stderr.hasPrefix("regression: 3 regression(s)"), "\(regression.stderr)")

        let junit = directory.appendingPathComponent("verdict.xml").path
        #expect(await runCommand(["compare", base, worse, "--format", "junit", "--out", junit]).status == .checkFailed)
        #expect(try String(contentsOfFile: junit, encoding: .utf8).contains("<failure"))
        // One comparison in several formats (`--also`), each file as its own `--format` writes it.
        let verdictJSON = directory.appendingPathComponent("verdict.json").path, alsoJunit = directory.appendingPathComponent("also.xml").path
        let once = await runCommand(["compare", base, worse, "--format", "json", "--out", verdictJSON, "--also", "junit=\(alsoJunit)"])
        #expect(once.status == .checkFailed)
        #expect(try String(contentsOfFile: alsoJunit, encoding: .utf8) == String(contentsOfFile: junit, encoding: .utf8))
        #expect(await runCommand(["compare", base, worse, "--also", "pdf=x.pdf"]).status == .usage)
        let html = directory.appendingPathComponent("compare.html").path
        #expect(await runCommand(["compare", base, worse, "--format", "html", "--out", html]).status == .checkFailed)
        let page = try String(contentsOfFile: html, encoding: .utf8)
        #expect(page.contains("✗ regression: 3 check(s) regressed") && page.contains("href=\"#moved-0\"") && page.contains("<tr id=\"moved-0\">"))

        let mismatch = await runCommand(["compare", base, other])
        #expect(mismatch.status == .dataError)
        #expect(mismatch.stderr.hasPrefix("error: "), "\(mismatch.stderr)")
        // Allowed, the same detector over the items both runs have: no change.
        let allowed = await runCommand(["compare", base, other, "--allow-mismatch"])
        #expect(allowed.status == .success, "\(allowed.stderr)")
    }

    /// stdout that cannot be written (a full disk: /dev/full) is not a result: exit 69, never 0.
    @Test func aFailedStdoutWriteExits69() async throws {
        #if os(Linux)
        let handle = try #require(FileHandle(forWritingAtPath: "/dev/full"))
        #else
        let handle = try #require(FileHandle(forReadingAtPath: "/dev/null"))  // no /dev/full: a descriptor writes fail on
        #endif
        let err = BufferSink()
        let status = await CommandRunner.run(LangBenchCommand.self, arguments: ["--version"],
                                             context: CommandContext(stdout: FileDescriptorSink(descriptor: handle.fileDescriptor), stderr: err))
        #expect(status == .unavailable)
        #expect(err.text.hasPrefix("error: cannot write standard output ("), "\(err.text)")
    }
}
