import Foundation
import LangBenchCLI
import TestSupport
import Testing

/// `bench results-scale` and `bench corpus-scale` with a tiny N, in process: each measures its steps in child
/// processes of the real `langbench` (`LANGBENCH_EXECUTABLE`) and prints figures decoded from their JSON.
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

    @Test func resultsScaleComparesAndMergesInChildren() async throws {
        let keep = try Fixture.temporaryDirectory()
        let result = await runCommand(["bench", "results-scale", "--items", "400", "--keep", keep.path], environment: try Self.environment())
        #expect(result.status == .success, "\(result.stderr)")
        #expect(result.stdout.hasSuffix("\n") && result.stdout.contains("items=400 configs=1 compare_seconds="))
        #expect(FileManager.default.fileExists(atPath: keep.appendingPathComponent("merged/detection-results.jsonl").path), "the merge child merged")
        Snapshot.assert(Self.shape(result.stdout), named: "bench-results-scale.txt")
    }

    @Test func corpusScaleRunsDetectAndTheRawSpeedInChildren() async throws {
        let result = await runCommand(["bench", "corpus-scale", "--items", "300", "--repeat", "1", "--jobs", "1", "--seconds", "0.05"],
                                      environment: try Self.environment())
        #expect(result.status == .success, "\(result.stderr)")
        #expect(result.stdout.contains("items=300 repeats=1 jobs1_items_per_second="))
        // The lines above the last say steady or unsteady as the machine was; the last line's keys are the contract.
        let last = try #require(result.stdout.split(separator: "\n").last)
        Snapshot.assert(Self.shape(String(last)) + "\n", named: "bench-corpus-scale.txt")
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
