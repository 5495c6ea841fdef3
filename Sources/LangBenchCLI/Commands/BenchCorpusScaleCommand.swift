import Support
import Detection
import Foundation
import Corpus
import Suite
import Recognizer

/// `langbench bench corpus-scale`: end-to-end `detect` over N generated one-word items against the
/// recognizer's raw speed measured in the same run, with peak memory and output size.
struct BenchCorpusScaleCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "corpus-scale",
        abstract: "Measure end-to-end detect over N generated one-word items against the recognizer's raw speed.",
        discussion: """
        Writes a seeded TSV of --items one-word items (ru, uk, bg, en words from the authored corpora), then runs \
        `langbench detect --candidates ru,uk,bg,en` on it as a child process with --jobs 1 and, when --jobs is more \
        than 1, again with --jobs N, --repeat times in turn; the summary gives medians over the repeats and the \
        range of the ratio per job. The raw single-thread words/s of the recognizer (same words, same candidates) \
        is measured before and after each detect run, each time in three fresh child processes (on this machine \
        one process measured up to 1.7 times another), median taken; a run's ratio is its items/s per job over \
        the mean of the medians before and after it, and its CPU ratio its items per CPU second over the raw \
        words per CPU second (robust to other processes' load); cores busy is its CPU over wall time. A control \
        for the machine: before the rounds, --jobs raw-speed children run at once, and their total words/s over \
        --jobs times one child's (the mean of the medians of three before and three after) is the recognizer's own scaling (1.00: the cores add up; below it, no harness \
        can reach the ratio per job the single-thread speed promises). A control for drift: a round whose six \
        raw-speed measurements spread by more than 15% (fastest over slowest) is unsteady, and the medians are \
        taken over the steady rounds when there is one (the summary says how many; steady_rounds in the last \
        line counts the --jobs N ones); the scaling is flagged the same way (raw_scaling_spread). A control \
        drift cannot move: each run's report gives the CPU seconds its detecting threads spent in the recognizer, \
        and those over wall time × jobs are the recognizer's share of the jobs' time, measured over the run itself \
        (the ratio per job the run would have if the recognizer ran inside it at its raw speed: what the harness \
        leaves to it); the recognizer's words per CPU second in the run over its raw words per CPU second say how \
        fast it ran there (ratio per job ≈ share × that speed). Peak memory is the largest detect child's maximum \
        resident set. Build with -c release. The last line is machine-readable.
        """,
        groups: [OptionGroup("Benchmark", [
            .value("items", "n", help: "Generated items (a run's fixed costs, ~0.1 s, weigh on fewer).", default: "1000000"),
            .value("seed", "n", help: "Generator seed.", default: "1"),
            .value("jobs", "n", help: "Tasks for the second detect run (1: run only --jobs 1).", computedDefault: "the core count"),
            .value("repeat", "k", help: "Rounds of detect runs (each --jobs 1, then --jobs N).", default: "3"),
            .value("seconds", "s", help: "Measuring time of each raw-speed block.", default: "2"),
            .repeated("corpus", "path", help: "Corpora to take words from (default: Corpora/short-phrases.tsv and Corpora/cyrillic-confusables.tsv)."),
            .value("keep", "dir", help: "Keep the corpus and the detect outputs in this directory."),
            .flag("raw-only", help: "Only measure the recognizer's raw speed once and print it (what the benchmark runs in its child processes)."),
        ])]
    )

    let items: Int
    let seed: Int
    let jobs: Int
    let repeats: Int
    let seconds: Double
    let corpora: [String]
    let keep: String?
    let rawOnly: Bool

    /// Fresh processes the raw speed is measured in, before and after each detect run.
    static let rawProcesses = 3

    init(_ arguments: ParsedArguments) throws {
        items = try arguments.int("items", range: 1...100_000_000)
        seed = try arguments.int("seed")
        jobs = try arguments.optionalInt("jobs", range: 1...1024) ?? ProcessInfo.processInfo.activeProcessorCount
        repeats = try arguments.int("repeat", range: 1...100)
        seconds = try arguments.double("seconds")
        let given = arguments.values("corpus")
        corpora = given.isEmpty ? ["Corpora/short-phrases.tsv", "Corpora/cyrillic-confusables.tsv"] : given
        keep = arguments.value("keep")
        rawOnly = arguments.flag("raw-only")
    }

    func validate() throws {
        if seconds <= 0 { throw UsageError("--seconds must be positive", command: "langbench bench corpus-scale") }
    }

    func run(_ context: CommandContext) async throws -> ExitStatus {
        if rawOnly {
            context.stdout.write(try JSONOutput.line(try rawSpeed()))
            return .success
        }
        let directory = keep.map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("langbench-scale-\(UUID().uuidString.prefix(8))")
        defer { if keep == nil { try? FileManager.default.removeItem(at: directory) } }  // a leftover temp dir is harmless
        let words = try Self.words(corpora)
        let corpus = directory.appendingPathComponent("scale.tsv")
        let corpusBytes = try CorpusScaleBenchmark.writeCorpus(items: items, seed: UInt64(seed), words: words, to: corpus)
        context.stdout.write(String(format: "corpus: %d one-word items (seed %d, %d distinct words), %.1f MB\n", items, seed,
                                    Set(words.map(\.text)).count, Double(corpusBytes) / 1_000_000))

        let probe = try ChildProbe.current(environment: context.environment)
        let raw = ["bench", "corpus-scale", "--raw-only", "--seconds", String(seconds)] + corpora.flatMap { ["--corpus", $0] }
        let probes = CorpusScaleSchedule.Probes(
            rawBlock: { try (0..<Self.rawProcesses).map { _ in try probe.measure(raw, as: CorpusScaleSchedule.RawSpeed.self).figures } },
            rawTogether: { try probe.measureTogether($0, raw, as: CorpusScaleSchedule.RawSpeed.self).map(\.wall) },
            detect: { jobs in
                let out = directory.appendingPathComponent("detect-jobs\(jobs)")
                let cpuBefore = SystemCall.cpuSeconds(children: true) ?? 0
                let wall = try probe.run(["detect", "--corpus", corpus.path, "--candidates", CorpusScaleBenchmark.languages.joined(separator: ","),
                                          "--out", out.path, "--quiet", "--jobs", String(jobs)])
                let cpu = (SystemCall.cpuSeconds(children: true) ?? 0) - cpuBefore
                let timings = try DetectionOutput.read(out.path).timings
                let recognizer = timings.allSatisfy { $0.cpuSeconds != nil } ? timings.compactMap(\.cpuSeconds).reduce(0, +) : nil
                return CorpusScaleSchedule.Detected(wallSeconds: wall, cpuSeconds: cpu, outputBytes: try CorpusScaleBenchmark.directoryBytes(out),
                                                    recognizerCPUSeconds: recognizer)
            })
        let steadySpread = CorpusScaleBenchmark.steadySpread * 100
        let (runs, scaling) = try await CorpusScaleSchedule(items: items, jobs: jobs, repeats: repeats).measure(probes) { event in
            switch event {
            case .scaling(let scaling):
                context.stdout.write(String(format: "raw recognizer, %d processes at once: %.0f words/s in total, scaling %.2f of %d × one thread's %.0f (raw spread around it %.0f%%: %@)\n",
                                            jobs, scaling.together, scaling.value, jobs, scaling.single, scaling.spread * 100,
                                            scaling.isSteady ? "steady" : "unsteady, the scaling is the drift's as much as the machine's"))
            case .run(let round, let run, let around):
                context.stdout.write(String(format: "round %d, detect --jobs %d: %.2f s wall, %.0f items/s; raw recognizer %.0f words/s (1 thread); ratio per job %.2f\n",
                                            round, run.jobs, run.wallSeconds, run.itemsPerSecond, run.rawWordsPerSecond, run.ratioPerJob))
                context.stdout.write(String(format: "  raw speed around it: %.0f–%.0f words/s, spread %.0f%%: %@\n",
                                            around.min() ?? 0, around.max() ?? 0, run.rawSpread * 100,
                                            run.isSteady ? "steady" : String(format: "unsteady (over %.0f%%), left out of the medians while a steady round exists", steadySpread)))
                context.stdout.write(String(format: "  CPU: %.2f s (%.2f cores busy), %.0f items per CPU second; raw %.0f words per CPU second; CPU ratio %.2f; output %.1f bytes/item\n",
                                            run.cpuSeconds, run.coresBusy, Double(run.items) / max(run.cpuSeconds, 1e-9), run.rawWordsPerCPUSecond, run.cpuRatio,
                                            run.outputBytesPerItem))
                if let share = run.recognizerShare, let speed = run.recognizerSpeedInRun, let cpu = run.recognizerCPUSeconds {
                    context.stdout.write(String(format: "  recognizer in the run: %.2f CPU s, %.2f of the jobs' time (measured over the run: drift cannot move it); %.0f words per CPU second there, %.2f of raw\n",
                                                cpu, share, Double(run.items) / cpu, speed))
                }
            }
        }
        let summaries = CorpusScaleBenchmark.summaries(runs)
        for summary in summaries {
            let basis = summary.steadyRuns > 0 ? "median of \(summary.steadyRuns) steady of \(summary.runs)"
                : "median of \(summary.runs), none steady: the machine's speed moved more than the harness's figures can show"
            context.stdout.write(String(format: "--jobs %d, %@: %.0f items/s, ratio per job %.2f (%.2f–%.2f), CPU ratio %.2f, %.2f cores busy\n",
                                        summary.jobs, basis, summary.itemsPerSecond, summary.ratioPerJob, summary.ratioPerJobRange.lowerBound,
                                        summary.ratioPerJobRange.upperBound, summary.cpuRatio, summary.coresBusy))
            if let share = summary.recognizerShare, let range = summary.recognizerShareRange {
                context.stdout.write(String(format: "  recognizer's share of the jobs' time, median of all %d: %.2f (%.2f–%.2f); its speed in the run %@ of raw\n",
                                            summary.runs, share, range.lowerBound, range.upperBound,
                                            summary.recognizerSpeedInRun.map { String(format: "%.2f", $0) } ?? "unknown"))
            }
        }
        let peak = SystemCall.childrenPeakResidentBytes()
        context.stdout.write("peak resident memory of a detect run: " + (peak.map { String(format: "%.0f MB", Double($0) / 1_048_576) } ?? "unknown") + "\n")
        let first = summaries[0], last = summaries[summaries.count - 1]
        context.stdout.write(String(format: "items=%d repeats=%d jobs1_items_per_second=%.0f jobs1_ratio=%.3f jobs1_cpu_ratio=%.3f jobs=%d items_per_second=%.0f ratio_per_job=%.3f ratio_per_job_min=%.3f cpu_ratio=%.3f cores_busy=%.2f peak_rss_mb=%@ output_bytes_per_item=%.1f raw_scaling=%@ raw_scaling_spread=%@ steady_rounds=%d raw_spread_max=%.3f recognizer_share=%@ recognizer_share_min=%@ recognizer_speed_in_run=%@\n",
                                    items, repeats, first.itemsPerSecond, first.ratioPerJob, first.cpuRatio, last.jobs, last.itemsPerSecond, last.ratioPerJob,
                                    last.ratioPerJobRange.lowerBound, last.cpuRatio, last.coresBusy,
                                    peak.map { String(format: "%.0f", Double($0) / 1_048_576) } ?? "nan", last.outputBytesPerItem,
                                    scaling.map { String(format: "%.3f", $0.value) } ?? "nan", scaling.map { String(format: "%.3f", $0.spread) } ?? "nan",
                                    last.steadyRuns, runs.map(\.rawSpread).max() ?? 0,
                                    Self.figure(last.recognizerShare), Self.figure(last.recognizerShareRange?.lowerBound), Self.figure(last.recognizerSpeedInRun)))
        return .success
    }

    /// A figure of the last line: three decimals, or nan when it was not measured.
    static func figure(_ value: Double?) -> String {
        value.map { String(format: "%.3f", $0) } ?? "nan"
    }

    /// The one-word ru/uk/bg/en items of `corpora`.
    static func words(_ corpora: [String]) throws -> [(lang: String, text: String)] {
        let words = CorpusScaleBenchmark.words(from: try CorpusLoader().load(corpora))
        guard !words.isEmpty else { throw UsageError("the corpora have no one-word ru/uk/bg/en items", command: "langbench bench corpus-scale") }
        return words
    }

    /// The recognizer's single-thread words/s (wall, and per CPU second of this thread) over the words of
    /// the corpora with the benchmark's candidates, measured in this process.
    func rawSpeed() throws -> CorpusScaleSchedule.RawSpeed {
        let texts = try Self.words(corpora).map(\.text)
        let model = try LanguageModel(contentsOf: try BuiltinDetector.modelURL(path: nil))
        let recognizer = LanguageRecognizer(model: model, constraints: CorpusScaleBenchmark.languages)
        let cpu = SystemCall.cpuSeconds(children: false) ?? 0
        let measured = DetectorBenchmark.throughput(texts: texts, minimumSeconds: seconds) { recognizer.recognize($0).dominantLanguage }
        let used = (SystemCall.cpuSeconds(children: false) ?? 0) - cpu
        return CorpusScaleSchedule.RawSpeed(wall: measured.textsPerSecond, cpu: used > 0 ? Double(measured.texts) / used : 0)
    }
}
