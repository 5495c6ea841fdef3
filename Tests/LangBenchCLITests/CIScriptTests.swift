import Foundation
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `scripts/ci-regression`'s exit code tells the truth: every input is checked before any work and a refusal exits 64
/// naming the variable, on stderr and in the PR comment (stdout); no variable reaches arithmetic unparsed; a
/// detection-only suite runs; a signal stops the job and everything it started and exits 128+n, never the fallback.
/// The jobs run the real script on a real git repository holding the example suite, with this build's langbench.
struct CIScriptTests {
    /// A git repository holding the example suite at `langbench/` in two commits (no change between them) and,
    /// when `detectionOnly`, without its generation half.
    static func repository(detectionOnly: Bool = false) throws -> URL {
        let root = try Fixture.temporaryDirectory().appendingPathComponent("app")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: CommandFixtures.repository.appendingPathComponent("Examples/app-suite"), to: root.appendingPathComponent("langbench"))
        if detectionOnly {
            let suite = root.appendingPathComponent("langbench/bench.json")
            var json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: suite)) as? [String: Any])
            json["generation"] = nil
            try JSONSerialization.data(withJSONObject: json).write(to: suite)
        }
        for arguments in [["init", "--quiet"], ["add", "-A"], ["commit", "--quiet", "-m", "base"], ["commit", "--quiet", "--allow-empty", "-m", "head"]] {
            let result = try Shell.run("/usr/bin/env", ["git", "-c", "user.name=app", "-c", "user.email=app@localhost"] + arguments, in: root,
                                       environment: ProcessInfo.processInfo.environment)
            try #require(result.status == 0, "git \(arguments): \(result.stderr)")
        }
        return root
    }

    static func job(_ repository: URL, _ overrides: [String: String]) throws -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["LANGBENCH_CI_REPO"] = repository.path
        environment["LANGBENCH_CI_SUITE"] = "langbench/bench.json"
        environment["LANGBENCH_CI_BIN"] = try LangBenchExecutable.path()
        environment["LANGBENCH_CI_BASE"] = "HEAD~1"
        environment["GITHUB_STEP_SUMMARY"] = nil
        for (key, value) in overrides { environment[key] = value.isEmpty ? nil : value }
        return environment
    }

    @Test(.needs(.child), arguments: [
        (["LANGBENCH_CI_REPO": "/nonexistent/repo"], "LANGBENCH_CI_REPO '/nonexistent/repo' is not a directory"),
        (["LANGBENCH_CI_REPO": "/tmp"], "LANGBENCH_CI_REPO '/tmp' is not a git repository"),
        (["LANGBENCH_CI_BIN": ""], "LANGBENCH_CI_REPO needs LANGBENCH_CI_BIN"),
        (["LANGBENCH_CI_BIN": "/nonexistent/langbench"], "LANGBENCH_CI_BIN '/nonexistent/langbench' is not an executable file"),
        (["LANGBENCH_CI_SUITE": "langbench/README.md"], "LANGBENCH_CI_SUITE:"),
        (["LANGBENCH_CI_SUITE": "nosuch.json"], "LANGBENCH_CI_SUITE: suite file"),
        (["LANGBENCH_CI_THRESHOLDS": "nosuch.json"], "LANGBENCH_CI_THRESHOLDS 'nosuch.json' is neither a preset"),
        (["LANGBENCH_CI_THRESHOLDS": "langbench/README.md"], "LANGBENCH_CI_THRESHOLDS:"),
        (["LANGBENCH_CI_ALPHA": "abc"], "LANGBENCH_CI_ALPHA must be a decimal between 0 and 1"),
        (["LANGBENCH_CI_ALPHA": "0.05junk"], "LANGBENCH_CI_ALPHA must be a decimal between 0 and 1"),
        (["LANGBENCH_CI_ALPHA": "0"], "LANGBENCH_CI_ALPHA must be a decimal between 0 and 1"),
        (["LANGBENCH_CI_BLOCKS": "four"], "LANGBENCH_CI_BLOCKS must be a whole number from 1 to 64, not 'four'"),
        (["LANGBENCH_CI_BLOCKS": "0"], "LANGBENCH_CI_BLOCKS must be a whole number from 1 to 64, not '0'"),
        (["LANGBENCH_CI_BLOCKS": "BASH_VERSINFO[$(touch pwned)]"], "LANGBENCH_CI_BLOCKS must be a whole number"),
        (["LANGBENCH_CI_SEED": "x[$(touch pwned)]"], "LANGBENCH_CI_SEED must be a whole number"),
        (["LANGBENCH_CI_THREADS": "2; touch pwned"], "LANGBENCH_CI_THREADS must be a whole number"),
        (["LANGBENCH_CI_SHARD": "3/2"], "LANGBENCH_CI_SHARD must be K/N"),
        (["LANGBENCH_CI_BASE": "deadbeefdeadbeefdeadbeefdeadbeefdeadbeef"], "LANGBENCH_CI_BASE 'deadbeefdeadbeefdeadbeefdeadbeefdeadbeef' is not a commit"),
    ])
    func everyInputIsCheckedBeforeAnyWork(overrides: [String: String], message: String) throws {
        let repository = try Self.repository()
        let scratch = repository.deletingLastPathComponent()
        let result = try Shell.run("/bin/bash", [CommandFixtures.path("scripts/ci-regression")], in: scratch, environment: try Self.job(repository, overrides))
        #expect(result.status == 64, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(result.stdout.hasPrefix("## ⚠️ LangBench: the job did not run") && result.stdout.contains(message), "the PR comment: \(result.stdout)")
        #expect(!FileManager.default.fileExists(atPath: repository.appendingPathComponent("Reports").path), "no work was done")
        #expect(!FileManager.default.fileExists(atPath: scratch.appendingPathComponent("pwned").path), "a variable was evaluated")
        #expect(!FileManager.default.fileExists(atPath: repository.appendingPathComponent("pwned").path), "a variable was evaluated")
    }

    /// A step summary that cannot be written is a warning: the job's status stays the one it reached (here the refusal).
    @Test(.needs(.child)) func anUnwritableStepSummaryIsAWarningNotTheStatus() throws {
        let repository = try Self.repository()
        let result = try Shell.run("/bin/bash", [CommandFixtures.path("scripts/ci-regression")], in: repository.deletingLastPathComponent(),
                                   environment: try Self.job(repository, ["LANGBENCH_CI_BLOCKS": "four", "GITHUB_STEP_SUMMARY": "/nonexistent/summary.md"]))
        #expect(result.status == 64, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("warning: cannot append to GITHUB_STEP_SUMMARY (/nonexistent/summary.md)"), "\(result.stderr)")
    }

    /// A head revision whose suite langbench refuses: the job exits with langbench's status and the PR comment says why.
    @Test(.needs(.child)) func aCandidateThatDoesNotRunSaysWhyInTheComment() throws {
        let repository = try Self.repository(detectionOnly: true)
        let suite = repository.appendingPathComponent("langbench/bench.json")
        var json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: suite)) as? [String: Any])
        var detection = try #require(json["detection"] as? [String: Any])
        detection["surprise"] = 1
        json["detection"] = detection
        try JSONSerialization.data(withJSONObject: json).write(to: suite)
        let commit = try Shell.run("/usr/bin/env", ["git", "-c", "user.name=app", "-c", "user.email=app@localhost", "commit", "--quiet", "-am", "typo"],
                                   in: repository, environment: ProcessInfo.processInfo.environment)
        try #require(commit.status == 0, "\(commit.stderr)")
        let result = try Shell.run("/bin/bash", [CommandFixtures.path("scripts/ci-regression")], in: repository.deletingLastPathComponent(),
                                   environment: try Self.job(repository, ["LANGBENCH_CI_BLOCKS": "2", "LANGBENCH_CI_BASE": "HEAD~2"]))
        #expect(result.status == 65, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.hasPrefix("## ⚠️ LangBench: the candidate did not run"), "the PR comment: \(result.stdout)")
        #expect(result.stdout.contains("unknown key(s) 'surprise'"), "the PR comment: \(result.stdout)")
    }

    /// A suite without a generation half needs no server: the job runs it and passes on no change.
    @Test(.needs(.child)) func aDetectionOnlySuiteRuns() throws {
        let repository = try Self.repository(detectionOnly: true)
        let result = try Shell.run("/bin/bash", [CommandFixtures.path("scripts/ci-regression")], in: repository.deletingLastPathComponent(),
                                   environment: try Self.job(repository, ["LANGBENCH_CI_BLOCKS": "2"]))
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("LangBench: no regression"), "\(result.stdout)")
        #expect(!result.stderr.contains("llama-server"), "a detection-only suite started a server: \(result.stderr)")
    }

    /// SIGTERM while the first block runs: the job stops its children and the server, exits 143, and starts no fallback.
    @Test(.needs(.child)) func aSignalStopsTheJobAndEverythingItStarted() async throws {
        let repository = try Self.repository()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [CommandFixtures.path("scripts/ci-regression")]
        process.currentDirectoryURL = repository.deletingLastPathComponent()
        process.environment = try Self.job(repository, [:])
        let log = repository.deletingLastPathComponent().appendingPathComponent("job.err")
        FileManager.default.createFile(atPath: log.path, contents: nil)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: log)
        try process.runWithNoSignalBlocked()
        // Wait until a block's langbench runs (its run directory exists), at most two minutes.
        let reports = repository.appendingPathComponent("Reports")
        var blocks: URL?
        for _ in 0..<1200 where blocks == nil && process.isRunning {
            try await Task.sleep(for: .milliseconds(100))
            let runs = (try? FileManager.default.contentsOfDirectory(atPath: reports.path)) ?? []  // try?: not there yet
            blocks = runs.first.map { reports.appendingPathComponent($0).appendingPathComponent("blocks") }
                .flatMap { ((try? FileManager.default.contentsOfDirectory(atPath: $0.path)) ?? []).isEmpty ? nil : $0 }
        }
        let before = try String(contentsOf: log, encoding: .utf8)
        let run = try #require(blocks, "no block started: \(before)").deletingLastPathComponent()
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        let err = try String(contentsOf: log, encoding: .utf8)
        #expect(process.terminationStatus == 143, "\(err)")
        #expect(err.contains("stopped by signal 15") && !err.contains("fallback"), "\(err)")
        // Nothing the job started outlives it: no process names its run directory or its server's model port.
        try await Task.sleep(for: .milliseconds(500))
        let left = try Shell.run("/usr/bin/pgrep", ["-f", run.path], in: repository, environment: ProcessInfo.processInfo.environment)
        #expect(left.stdout.isEmpty, "left running: \(left.stdout)")
        let args = (try? String(contentsOf: run.appendingPathComponent("llama-server.args"), encoding: .utf8)) ?? ""  // try?: no server yet is fine
        if let port = args.split(separator: " ").drop(while: { $0 != "--port" }).dropFirst().first {
            let server = try Shell.run("/usr/bin/pgrep", ["-f", "--port \(port)"], in: repository, environment: ProcessInfo.processInfo.environment)
            #expect(server.stdout.isEmpty, "llama-server left running: \(server.stdout)")
        }
    }
}
