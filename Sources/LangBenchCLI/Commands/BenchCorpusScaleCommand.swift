import BenchSupport
import Foundation
import LangBench
import LanguageRecognition

/// `langbench bench corpus-scale`: end-to-end `detect` over N generated one-word items against the
/// recognizer's raw speed measured in the same run, with peak memory and output size.
struct BenchCorpusScaleCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "corpus-scale",
        abstract: "Measure end-to-end detect over N generated one-word items against the recognizer's raw speed.",
        discussion: """
        Writes a seeded TSV of --items one-word items (ru, uk, bg, en words from the authored corpora), then runs \
        `langbench detect --candidates ru,uk,bg,en` on it as a child process with --jobs 1 and, when --jobs is more \
        than 1, again with --jobs N. The raw single-thread words/s of the recognizer (same words, same candidates) \
        is measured before and after each detect run; a run's ratio is its items/s per job over their mean, and its \
        CPU ratio its items per CPU second over the raw words per CPU second (robust to other processes' load). Peak \
        memory is the largest detect child's maximum resident set. Build with -c release. The last line is \
        machine-readable.
        """,
        groups: [OptionGroup("Benchmark", [
            .value("items", "n", help: "Generated items.", default: "200000"),
            .value("seed", "n", help: "Generator seed.", default: "1"),
            .value("jobs", "n", help: "Tasks for the second detect run (1: run only --jobs 1).", computedDefault: "the core count"),
            .value("seconds", "s", help: "Measuring time of each raw-speed block.", default: "2"),
            .repeated("corpus", "path", help: "Corpora to take words from (default: Corpora/short-phrases.tsv and Corpora/cyrillic-confusables.tsv)."),
            .value("keep", "dir", help: "Keep the corpus and the detect outputs in this directory."),
        ])]
    )

    let items: Int
    let seed: Int
    let jobs: Int
    let seconds: Double
    let corpora: [String]
    let keep: String?

    init(_ arguments: ParsedArguments) throws {
        items = try arguments.int("items", range: 1...100_000_000)
        seed = try arguments.int("seed")
        jobs = try arguments.optionalInt("jobs", range: 1...1024) ?? ProcessInfo.processInfo.activeProcessorCount
        seconds = try arguments.double("seconds")
        let given = arguments.values("corpus")
        corpora = given.isEmpty ? ["Corpora/short-phrases.tsv", "Corpora/cyrillic-confusables.tsv"] : given
        keep = arguments.value("keep")
    }

    func validate() throws {
        if seconds <= 0 { throw UsageError("--seconds must be positive", command: "langbench bench corpus-scale") }
    }

    func run(_ context: CommandContext) async throws -> ExitStatus {
        let directory = keep.map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("langbench-scale-\(UUID().uuidString.prefix(8))")
        defer { if keep == nil { try? FileManager.default.removeItem(at: directory) } }  // a leftover temp dir is harmless
        let words = CorpusScaleBenchmark.words(from: try CorpusLoader().load(corpora))
        guard !words.isEmpty else { throw UsageError("the corpora have no one-word ru/uk/bg/en items", command: "langbench bench corpus-scale") }
        let corpus = directory.appendingPathComponent("scale.tsv")
        let corpusBytes = try CorpusScaleBenchmark.writeCorpus(items: items, seed: UInt64(seed), words: words, to: corpus)
        context.stdout.write(String(format: "corpus: %d one-word items (seed %d, %d distinct words), %.1f MB\n", items, seed,
                                    Set(words.map(\.text)).count, Double(corpusBytes) / 1_000_000))

        let model = try LanguageModel(contentsOf: try BuiltinDetector.modelURL(path: nil))
        let recognizer = LanguageRecognizer(model: model, constraints: CorpusScaleBenchmark.languages)
        let texts = words.map(\.text)
        func raw() -> (wall: Double, cpu: Double) {
            let cpu = SystemCall.cpuSeconds(children: false) ?? 0
            let measured = DetectorBenchmark.throughput(texts: texts, minimumSeconds: seconds) { recognizer.recognize($0).dominantLanguage }
            let used = (SystemCall.cpuSeconds(children: false) ?? 0) - cpu
            return (measured.textsPerSecond, used > 0 ? Double(measured.texts) / used : 0)
        }
        var rawBefore = raw()
        var runs: [CorpusScaleBenchmark.Run] = []
        for jobs in jobs > 1 ? [1, jobs] : [1] {
            let out = directory.appendingPathComponent("detect-jobs\(jobs)")
            let cpuBefore = SystemCall.cpuSeconds(children: true) ?? 0
            let wall = try await Self.detect(corpus: corpus, out: out, jobs: jobs)
            let cpu = (SystemCall.cpuSeconds(children: true) ?? 0) - cpuBefore
            let rawAfter = raw()
            let run = CorpusScaleBenchmark.Run(jobs: jobs, items: items, wallSeconds: wall, cpuSeconds: cpu,
                                               rawWordsPerSecond: (rawBefore.wall + rawAfter.wall) / 2,
                                               rawWordsPerCPUSecond: (rawBefore.cpu + rawAfter.cpu) / 2,
                                               outputBytes: try CorpusScaleBenchmark.directoryBytes(out))
            context.stdout.write(String(format: "detect --jobs %d: %.2f s wall, %.0f items/s; raw recognizer %.0f words/s (1 thread); ratio per job %.2f\n",
                                        jobs, wall, run.itemsPerSecond, run.rawWordsPerSecond, run.ratioPerJob))
            context.stdout.write(String(format: "  CPU: %.2f s, %.0f items per CPU second; raw %.0f words per CPU second; CPU ratio %.2f; output %.1f bytes/item\n",
                                        cpu, Double(items) / max(cpu, 1e-9), run.rawWordsPerCPUSecond, run.cpuRatio, run.outputBytesPerItem))
            runs.append(run)
            rawBefore = rawAfter
        }
        let peak = SystemCall.childrenPeakResidentBytes()
        context.stdout.write("peak resident memory of a detect run: " + (peak.map { String(format: "%.0f MB", Double($0) / 1_048_576) } ?? "unknown") + "\n")
        let last = runs.last!
        context.stdout.write(String(format: "items=%d jobs1_items_per_second=%.0f jobs1_ratio=%.3f jobs1_cpu_ratio=%.3f jobs=%d items_per_second=%.0f ratio_per_job=%.3f peak_rss_mb=%@ output_bytes_per_item=%.1f\n",
                                    items, runs[0].itemsPerSecond, runs[0].ratioPerJob, runs[0].cpuRatio, last.jobs, last.itemsPerSecond, last.ratioPerJob,
                                    peak.map { String(format: "%.0f", Double($0) / 1_048_576) } ?? "nan", last.outputBytesPerItem))
        return .success
    }

    /// Runs this executable's `detect` on `corpus`; returns the wall time in seconds.
    static func detect(corpus: URL, out: URL, jobs: Int) async throws -> Double {
        guard let executable = Bundle.main.executablePath else {
            throw UsageError("cannot find the langbench executable to run detect", command: "langbench bench corpus-scale")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["detect", "--corpus", corpus.path, "--candidates", CorpusScaleBenchmark.languages.joined(separator: ","),
                             "--out", out.path, "--quiet", "--jobs", String(jobs)]
        process.standardOutput = FileHandle.nullDevice
        let start = ContinuousClock.now
        try process.run()
        process.waitUntilExit()
        let wall = (ContinuousClock.now - start).seconds
        guard process.terminationStatus == 0 else {
            throw ReportError.cannotWrite(path: out.path, reason: "detect exited \(process.terminationStatus)")
        }
        return wall
    }
}
