@testable import Support
import Foundation
@testable import Generation
import Suite
@testable import LangBenchCLI
import Provenance
import ByteIO
import TestSupport
import Testing

/// Interruption and resume on the real `langbench` executable (a child process) with its own real
/// llama-server: real signals to the harness, `kill -9` to its server. Nothing the interruption or the
/// dead server caused may be recorded, and the state left behind must resume to a complete run.
@Suite(.serialized)
struct InterruptionTests {
    /// Enough that a signal after the first record lands mid-run, few enough that resuming is quick under load.
    static let itemCount = 6

    /// English messages (answered directly, so each takes one request).
    static func corpus(in directory: URL) throws -> String {
        let texts = ["How was your day?", "What should I cook tonight?", "I passed my driving test!", "Any tips for sleeping better?",
                     "My cat knocked over a plant.", "Is it going to rain tomorrow?", "I started learning the guitar.",
                     "What is a good book to read?", "I feel tired after work.", "We adopted a puppy today.",
                     "How do I stay focused?", "My friend is visiting this weekend."]
        let url = directory.appendingPathComponent("english.tsv")
        let rows = texts.prefix(itemCount).enumerated().map { String(format: "e-%02d\ten\t%@\t", $0.offset, $0.element) }
        try ("id\tlang\ttext\ttags\n" + rows.joined(separator: "\n") + "\n").write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    static func arguments(corpus: String, out: String) -> [String] {
        ["generate", "--corpus", corpus, "--route", "direct", "--warmup", "0", "--seed", "7", "--profile", CommandFixtures.profile,
         "--out", out, "--quiet"]
    }

    static func logged(_ out: String) throws -> [GenerationRecord] {
        try JSONLinesLog<GenerationRecord>.read(URL(fileURLWithPath: out).appendingPathComponent(GenerationOutput.recordsLog))
    }

    /// Finishes the run in-process with `--resume` and checks it is complete and keeps what was recorded.
    static func resumeCompletes(corpus: String, out: String, kept: [GenerationRecord]) async throws {
        let resumed = await runCommand(arguments(corpus: corpus, out: out) + ["--resume"])
        #expect(resumed.status == .success, "\(resumed.stderr)")
        let report = try GenerationOutput.read(out)
        #expect(report.records.count == itemCount)
        #expect(!report.records.contains { $0.fallbackReason == .modelUnavailable })
        let byKey = Dictionary(report.records.map { ($0.key, $0) }, uniquingKeysWith: { a, _ in a })
        #expect(kept.allSatisfy { byKey[$0.key] == $0 }, "resume keeps every record made before the stop")
    }

    @Test(.needs(.child), arguments: [SIGHUP, SIGINT, SIGTERM])
    func aSignalStopsTheLoopRecordsNothingItCausedAndResumes(signal: Int32) async throws {
        let directory = try Fixture.temporaryDirectory()
        let corpus = try Self.corpus(in: directory)
        let out = directory.appendingPathComponent("gen").path
        let child = try LangBenchProcess.start(Self.arguments(corpus: corpus, out: out), in: directory)
        let started = await poll(within: 300) { ((try? Self.logged(out).count) ?? 0) >= 1 || !child.process.isRunning }
        try #require(started && child.process.isRunning, "no record before the run ended: \(child.stderr)")
        kill(child.process.processIdentifier, signal)
        #expect(await child.waitForExit(within: 30))

        #expect(child.process.terminationReason == .uncaughtSignal && child.process.terminationStatus == signal,
                 "dies of the signal it got (a shell sees 128 + \(signal))")
        #expect(child.stderr.contains("interrupted by \(GenerationStopped.name(of: signal)) after"), "\(child.stderr)")
        #expect(child.stderr.contains("--resume --out \(out)"), "\(child.stderr)")
        let kept = try Self.logged(out)
        try #require(kept.count < Self.itemCount, "the signal came after the last item: nothing was tested")
        #expect(!kept.contains { $0.fallbackReason == .modelUnavailable }, "no fallback caused by stopping the server")
        #expect(!CommandFixtures.exists(out, GenerationOutput.markdownFile), "no report for an unfinished run")
        #expect(child.children(named: "llama-server").isEmpty)
        try await Self.resumeCompletes(corpus: corpus, out: out, kept: kept)
    }

    /// `kill -9` of the server once: it is restarted, the item it broke is redone, and the run is complete.
    @Test(.needs(.child)) func aServerKilledOnceIsRestartedAndNothingIsRecordedAsAFallback() async throws {
        let directory = try Fixture.temporaryDirectory()
        let corpus = try Self.corpus(in: directory)
        let out = directory.appendingPathComponent("gen").path
        let child = try LangBenchProcess.start(Self.arguments(corpus: corpus, out: out), in: directory)
        let started = await poll(within: 300) { ((try? Self.logged(out).count) ?? 0) >= 1 || !child.process.isRunning }
        try #require(started && child.process.isRunning, "no record before the run ended: \(child.stderr)")
        let servers = child.children(named: "llama-server")
        try #require(servers.count == 1)
        kill(servers[0], SIGKILL)
        #expect(await child.waitForExit(within: 600))

        #expect(child.process.terminationReason == .exit && child.process.terminationStatus == 0, "\(child.stderr)")
        let report = try GenerationOutput.read(out)
        #expect(report.records.count == Self.itemCount)
        #expect(!report.records.contains { $0.fallbackReason == .modelUnavailable })
        #expect(report.provenance.serverRestarts == 1)
        let log = try String(contentsOfFile: URL(fileURLWithPath: out).appendingPathComponent(GenerationOutput.serverLog).path, encoding: .utf8)
        #expect(log.contains("llama-server restarted"))
    }

    /// A server that keeps dying: after the allowed restarts the run stops with 69, records nothing
    /// the deaths caused, and `--resume` finishes it.
    @Test(.needs(.child)) func aServerThatKeepsDyingStopsTheRunWith69AndResumes() async throws {
        let directory = try Fixture.temporaryDirectory()
        let corpus = try Self.corpus(in: directory)
        let out = directory.appendingPathComponent("gen").path
        let child = try LangBenchProcess.start(Self.arguments(corpus: corpus, out: out), in: directory)
        let started = await poll(within: 300) { ((try? Self.logged(out).count) ?? 0) >= 1 || !child.process.isRunning }
        try #require(started && child.process.isRunning, "no record before the run ended: \(child.stderr)")
        var kills = 0
        _ = await poll(within: 600) {
            for pid in child.children(named: "llama-server") { kill(pid, SIGKILL); kills += 1 }
            return !child.process.isRunning
        }
        #expect(kills == GenerationSetup.maxServerRestarts + 1, "the first server and each restart")
        #expect(child.process.terminationReason == .exit && child.process.terminationStatus == ExitStatus.unavailable.rawValue, "\(child.stderr)")
        #expect(child.stderr.contains("llama-server died and was not brought back"), "\(child.stderr)")
        let kept = try Self.logged(out)
        #expect(kept.count < Self.itemCount)
        #expect(!kept.contains { $0.fallbackReason == .modelUnavailable })
        #expect(!CommandFixtures.exists(out, GenerationOutput.markdownFile))
        try await Self.resumeCompletes(corpus: corpus, out: out, kept: kept)
    }
}
