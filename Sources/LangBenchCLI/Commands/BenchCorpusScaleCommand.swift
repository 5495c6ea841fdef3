import Support
import Foundation
import Corpus
import Suite

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
            context.stdout.write(try JSONOutput.line(try CorpusScaleBenchmark.rawSpeed(texts: try Self.words(corpora).map(\.text), seconds: seconds)))
            return .success
        }
        let directory = keep.map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("langbench-scale-\(UUID().uuidString.prefix(8))")
        defer { if keep == nil { try? FileManager.default.removeItem(at: directory) } }  // a leftover temp dir is harmless
        let words = try Self.words(corpora)
        let corpus = directory.appendingPathComponent("scale.tsv")
        let corpusBytes = try CorpusScaleBenchmark.writeCorpus(items: items, seed: UInt64(seed), words: words, to: corpus)
        context.stdout.write(CorpusScaleBenchmark.Text.corpus(items: items, seed: seed, distinctWords: Set(words.map(\.text)).count, bytes: corpusBytes))
        let raw = ["bench", "corpus-scale", "--raw-only", "--seconds", String(seconds)] + corpora.flatMap { ["--corpus", $0] }
        let probes = CorpusScaleSchedule.Probes.children(try ChildProbe.current(environment: context.environment), rawArguments: raw,
                                                         rawProcesses: Self.rawProcesses, corpus: corpus, directory: directory)
        let (runs, scaling) = try await CorpusScaleSchedule(items: items, jobs: jobs, repeats: repeats).measure(probes) { event in
            context.stdout.write(CorpusScaleBenchmark.Text.event(event, jobs: jobs))
        }
        let summaries = CorpusScaleBenchmark.summaries(runs), peak = SystemCall.childrenPeakResidentBytes()
        context.stdout.write(CorpusScaleBenchmark.Text.summaries(summaries, peakResidentBytes: peak))
        context.stdout.write(CorpusScaleBenchmark.Text.lastLine(items: items, repeats: repeats, summaries: summaries, runs: runs, scaling: scaling,
                                                                peakResidentBytes: peak))
        return .success
    }

    /// The one-word ru/uk/bg/en items of `corpora`.
    static func words(_ corpora: [String]) throws -> [(lang: String, text: String)] {
        let words = CorpusScaleBenchmark.words(from: try CorpusLoader().load(corpora))
        guard !words.isEmpty else { throw UsageError("the corpora have no one-word ru/uk/bg/en items", command: "langbench bench corpus-scale") }
        return words
    }
}
