@testable import Support
import Foundation
@testable import LangBenchCLI
import TestSupport
import Testing

/// An `exec:` child and whatever it starts (a wrapper's own child) end with the request that timed out, and with
/// `langbench` however it ends: SIGINT, or SIGKILL, which nothing in the process can catch (its watchdog does it).
@Suite(.serialized)
struct ExecChildGroupTests {
    /// A detector that starts a grandchild, writes both pids to `pids`, and never answers.
    static func wrapper(in directory: URL) throws -> (spec: String, pids: URL) {
        let pids = directory.appendingPathComponent("pids")
        let script = directory.appendingPathComponent("wrapper.sh")
        try "sleep 300 &\necho \"$$ $!\" > '\(pids.path).tmp' && mv '\(pids.path).tmp' '\(pids.path)'\ncat > /dev/null\n"
            .write(to: script, atomically: true, encoding: .utf8)
        return ("exec:sh \(script.path)", pids)
    }

    static func corpus(in directory: URL) throws -> String {
        let url = directory.appendingPathComponent("one.tsv")
        try "id\tlang\ttext\ttags\na1\ten\tHello there\t\n".write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    /// The pids the wrapper wrote: itself and its grandchild.
    static func started(_ pids: URL) async throws -> [Int32] {
        try #require(await poll(within: 30) { FileManager.default.fileExists(atPath: pids.path) }, "the wrapper never started")
        return try String(contentsOf: pids, encoding: .utf8).split(whereSeparator: \.isWhitespace).compactMap { Int32($0) }
    }

    /// Running and not a zombie (no one may reap an orphan's zombie in a container).
    static func alive(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return kill(pid, 0) == 0 }
        guard let close = stat.lastIndex(of: ")") else { return false }
        return stat[stat.index(close, offsetBy: 2)] != "Z"
    }

    @Test(.needs(.child)) func aTimedOutRequestEndsTheChildAndWhatItStarted() async throws {
        let directory = try Fixture.temporaryDirectory()
        let (spec, pids) = try Self.wrapper(in: directory)
        let result = await runCommand(["detect", "--corpus", try Self.corpus(in: directory), "--detector", spec,
                                       "--timeout", "1", "--out", directory.appendingPathComponent("out").path])
        #expect(result.stderr.contains("no answer within 1 s"), "\(result.stderr)")
        let started = try await Self.started(pids)
        #expect(started.count == 2)
        #expect(await poll(within: 10) { !started.contains(where: Self.alive) }, "still running: \(started.filter(Self.alive))")
    }

    @Test(.needs(.child), arguments: [SIGKILL, SIGINT])
    func theChildAndWhatItStartedEndWithLangbench(signal: Int32) async throws {
        let directory = try Fixture.temporaryDirectory()
        let (spec, pids) = try Self.wrapper(in: directory)
        let child = try LangBenchProcess.start(["detect", "--corpus", try Self.corpus(in: directory), "--detector", spec,
                                                "--timeout", "120", "--out", directory.appendingPathComponent("out").path], in: directory)
        let started = try await Self.started(pids)
        #expect(started.count == 2 && started.allSatisfy(Self.alive))
        kill(child.process.processIdentifier, signal)
        #expect(await child.waitForExit(within: 30))
        #expect(await poll(within: 15) { !started.contains(where: Self.alive) }, "still running: \(started.filter(Self.alive))")
    }
}
