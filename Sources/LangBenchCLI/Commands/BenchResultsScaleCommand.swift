import Support
import Foundation
import Suite

/// `langbench bench results-scale`: `compare` and `merge` of two generated N-item detection runs,
/// their items/s and peak memory.
struct BenchResultsScaleCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "results-scale",
        abstract: "Measure compare and merge of two generated N-item detection runs: items/s and peak memory.",
        discussion: """
        Writes four synthetic detection runs in the real on-disk format (results log, per-item CSV, reports) of \
        --items items and --configs configs: a base run, a current run with 2% of the items flipped each way, and \
        the base run's two halves (even and odd item numbers) as shards. Then runs, each in a child process of its \
        own, the comparison of base and current (what `compare` does, without rendering) and the merge of the two \
        shards (`merge`). Items/s is --items over the child's wall time; peak memory is the child's maximum \
        resident set (getrusage; on Linux /proc/self/status VmHWM). Build with -c release. The last line is \
        machine-readable.
        """,
        groups: [OptionGroup("Benchmark", [
            .value("items", "n", help: "Items per run.", default: "1000000"),
            .value("configs", "n", help: "Detection configs per run.", default: "1"),
            .value("seed", "n", help: "Generator seed.", default: "1"),
            .value("keep", "dir", help: "Write the runs in this directory and keep them."),
            .value("child", "compare|merge", help: "Only run this step on the runs in --keep and print its figures (what the benchmark runs in its child processes)."),
        ])]
    )

    let items: Int
    let configs: Int
    let seed: Int
    let keep: String?
    let child: String?

    init(_ arguments: ParsedArguments) throws {
        items = try arguments.int("items", range: 1...100_000_000)
        configs = try arguments.int("configs", range: 1...16)
        seed = try arguments.int("seed")
        keep = arguments.value("keep")
        child = arguments.value("child")
    }

    func validate() throws {
        if let child, !["compare", "merge"].contains(child) {
            throw UsageError("--child takes compare or merge, not '\(child)'", command: "langbench bench results-scale")
        }
        if child != nil, keep == nil { throw UsageError("--child needs --keep (the runs' directory)", command: "langbench bench results-scale") }
    }

    func run(_ context: CommandContext) async throws -> ExitStatus {
        if let child, let keep, let step = ResultsScaleBenchmark.StepName(rawValue: child) {
            context.stdout.write(try JSONOutput.line(try ResultsScaleBenchmark.measure(step, in: URL(fileURLWithPath: keep))))
            return .success
        }
        let directory = keep.map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("langbench-results-\(UUID().uuidString.prefix(8))")
        defer { if keep == nil { try? FileManager.default.removeItem(at: directory) } }  // a leftover temp dir is harmless
        let start = ContinuousClock.now
        var bytes = 0
        for (name, run) in ResultsScaleBenchmark.runs {
            bytes += try ResultsScaleBenchmark.write(run, items: items, configs: configs, seed: UInt64(seed), to: directory.appendingPathComponent(name))
        }
        context.stdout.write(ResultsScaleBenchmark.writtenLine(items: items, configs: configs, bytes: bytes, seconds: (ContinuousClock.now - start).seconds))
        let probe = try ChildProbe.current(environment: context.environment)
        var figures: [ResultsScaleBenchmark.StepName: ResultsScaleBenchmark.Step] = [:]
        for step in ResultsScaleBenchmark.StepName.allCases {
            let (measured, wall) = try probe.measure(["bench", "results-scale", "--child", step.rawValue, "--keep", directory.path],
                                                     as: ResultsScaleBenchmark.Step.self)
            figures[step] = measured
            context.stdout.write(ResultsScaleBenchmark.stepLine(step, measured, wall: wall, items: items, configs: configs))
        }
        context.stdout.write(ResultsScaleBenchmark.lastLine(items: items, configs: configs, compare: figures[.compare]!, merge: figures[.merge]!))
        return .success
    }
}
