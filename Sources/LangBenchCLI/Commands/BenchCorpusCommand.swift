import Foundation
import Corpus

/// `langbench bench corpus`: corpus loading speed against reading the same bytes.
struct BenchCorpusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "corpus",
        abstract: "Measure loading a large synthetic TSV corpus against reading and splitting the same file.",
        discussion: "Medians over the repeats; build with -c release. The last line is machine-readable: corpus_load_seconds=<s> ratio=<r>.",
        groups: [OptionGroup("Benchmark", [
            .value("lines", "n", help: "Corpus lines.", default: "100000"),
            .value("repeat", "k", help: "Repeats.", default: "5"),
            .value("items-in-memory", "n", help: "Measure the read in id order with this spool threshold instead of the plain load (one threshold per process: the peak is the process's)."),
        ])]
    )

    let lines: Int
    let repeats: Int
    let itemsInMemory: Int?

    init(_ arguments: ParsedArguments) throws {
        lines = try arguments.int("lines", range: 1...10_000_000)
        repeats = try arguments.int("repeat", range: 1...100)
        itemsInMemory = try arguments.optionalInt("items-in-memory", range: 1...100_000_000)
    }

    func run(_ context: CommandContext) async throws -> ExitStatus {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("langbench-bench-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: directory) }  // a leftover temp file is harmless
        let result = try CorpusLoadBenchmark(lines: lines, repeats: repeats, itemsInMemory: itemsInMemory).run(in: directory)
        context.stdout.write(String(format: "corpus: %d lines, %.1f MB\n", result.lines, Double(result.bytes) / 1_000_000))
        if let itemsInMemory {
            context.stdout.write(String(format: "read in id order (spool threshold %d items): %.3f s median of %d, peak %.0f MB\n", itemsInMemory, result.loadSeconds,
                                        repeats, Double(result.peakBytes ?? 0) / 1_000_000))
        } else {
            context.stdout.write(String(format: "load (parse, validate, normalise codes, hash): %.3f s median of %d\n", result.loadSeconds, repeats))
        }
        context.stdout.write(String(format: "reference (read + split lines):               %.3f s\n", result.referenceSeconds))
        context.stdout.write(String(format: "corpus_load_seconds=%.3f ratio=%.1f\n", result.loadSeconds, result.ratio))
        return .success
    }
}
