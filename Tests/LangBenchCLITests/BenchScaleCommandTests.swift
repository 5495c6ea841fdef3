import Foundation
import LangBenchCLI
import TestSupport
import Testing

/// The bench commands with a tiny N, in process, their output's shape pinned by a golden: `bench results-scale`
/// and `bench corpus-scale` measure their steps in child processes of the real `langbench`
/// (`LANGBENCH_EXECUTABLE`) and print figures decoded from their JSON; `bench corpus` measures in process.
/// (`bench detector` and `bench backend` have theirs beside the recognizer's and the backend's tests.)
struct BenchScaleCommandTests {
    static func environment(executable: String? = nil) throws -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["LANGBENCH_EXECUTABLE"] = try executable ?? LangBenchExecutable.path()
        return environment
    }

    /// The output with every number replaced by N: its shape, which a golden pins (the figures are measured).
    static func shape(_ text: String) -> String {
        text.replacing(#/-?[0-9]+(\.[0-9]+)?/#, with: "N")
    }

    @Test(.needs(.child)) func resultsScaleComparesAndMergesInChildren() async throws {
        let keep = try Fixture.temporaryDirectory()
        let result = await runCommand(["bench", "results-scale", "--items", "400", "--keep", keep.path], environment: try Self.environment())
        #expect(result.status == .success, "\(result.stderr)")
        #expect(result.stdout.hasSuffix("\n") && result.stdout.contains("items=400 configs=1 compare_seconds="))
        #expect(FileManager.default.fileExists(atPath: keep.appendingPathComponent("merged/detection-results.jsonl").path), "the merge child merged")
        Snapshot.assert(Self.shape(result.stdout), named: "bench-results-scale.txt")
    }

    @Test(.needs(.child)) func corpusScaleRunsDetectAndTheRawSpeedInChildren() async throws {
        let result = await runCommand(["bench", "corpus-scale", "--items", "300", "--repeat", "1", "--jobs", "1", "--seconds", "0.05"],
                                      environment: try Self.environment())
        #expect(result.status == .success, "\(result.stderr)")
        #expect(result.stdout.contains("items=300 repeats=1 jobs1_items_per_second="))
        // The lines above the last say steady or unsteady as the machine was; the last line's keys are the contract.
        let last = try #require(result.stdout.split(separator: "\n").last)
        Snapshot.assert(Self.shape(String(last)) + "\n", named: "bench-corpus-scale.txt")
    }

    /// `bench corpus` in process with a tiny corpus, both ways it measures (the plain load, the read in id order).
    @Test func corpusLoadMeasuresATinyCorpus() async throws {
        for (arguments, golden) in [([String](), "bench-corpus.txt"), (["--items-in-memory", "50"], "bench-corpus-sorted.txt")] {
            let result = await runCommand(["bench", "corpus", "--lines", "200", "--repeat", "1"] + arguments)
            #expect(result.status == .success, "\(result.stderr)")
            #expect(result.stdout.hasPrefix("corpus: 200 lines, "))
            Snapshot.assert(Self.shape(result.stdout), named: golden)
        }
    }

    /// A child that fails (`/bin/false` stands in for a crashed one: a real crash cannot be had on demand) stops the
    /// benchmark with exit 70, naming the child's command and status.
    @Test func aFailedChildIsAnInternalErrorNamingIt() async throws {
        let result = await runCommand(["bench", "results-scale", "--items", "50"], environment: try Self.environment(executable: "/bin/false"))
        #expect(result.status == .internalError)
        #expect(result.stderr.hasPrefix("error: the benchmark's child `false bench results-scale --child compare --keep "), "\(result.stderr)")
        #expect(result.stderr.contains("failed (exit 1)"))
    }
}
