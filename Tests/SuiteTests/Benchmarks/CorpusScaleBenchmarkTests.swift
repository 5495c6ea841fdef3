import Foundation
@testable import Corpus
@testable import Suite
import TestSupport
import Testing

/// The scale benchmark's corpus is reproducible from its seed and loads as the items it claims; its
/// timings belong to `langbench bench corpus-scale`, not to tests.
struct CorpusScaleBenchmarkTests {
    static let words = [("ru", "привет"), ("uk", "дякую"), ("bg", "здравей"), ("en", "hello")].map { (lang: $0.0, text: $0.1) }

    @Test func theSeedFixesTheCorpus() throws {
        let directory = try Fixture.temporaryDirectory()
        let paths = ["a", "b", "c"].map { directory.appendingPathComponent("\($0).tsv") }
        for (path, seed) in zip(paths, [7, 7, 8] as [UInt64]) {
            try CorpusScaleBenchmark.writeCorpus(items: 5_000, seed: seed, words: Self.words, to: path)
        }
        let bytes = try paths.map { try Data(contentsOf: $0) }
        #expect(bytes[0] == bytes[1])
        #expect(bytes[0] != bytes[2])
        let corpus = try CorpusLoader().load([paths[0].path])
        #expect(corpus.items.count == 5_000)
        #expect(Set(corpus.items.map(\.lang.identifier)) == ["ru", "uk", "bg", "en"])
        #expect(corpus.items.allSatisfy { LengthBucket.wordCount($0.text) == 1 && $0.tags == ["synthetic"] })
    }

    @Test func wordsAreTheOneWordItemsOfTheCandidateLanguages() {
        let items = [CorpusItem(id: "1", lang: LanguageCode(normalised: "ru"), text: "слово"),
                     CorpusItem(id: "2", lang: LanguageCode(normalised: "ru"), text: "два слова"),
                     CorpusItem(id: "3", lang: LanguageCode(normalised: "de"), text: "Wort")]
        let words = CorpusScaleBenchmark.words(from: Corpus(items: items, sources: []))
        #expect(words.map(\.text) == ["слово"])
    }

    /// The figures a run reports follow from what was measured.
    @Test func aRunsFiguresFollowFromItsMeasurements() {
        let run = CorpusScaleBenchmark.Run(jobs: 2, items: 1_000, wallSeconds: 2, cpuSeconds: 3, rawWordsPerSecond: 500, rawWordsPerCPUSecond: 400,
                                           outputBytes: 84_000)
        #expect(run.itemsPerSecond == 500)
        #expect(run.ratioPerJob == 0.5)
        #expect(abs(run.cpuRatio - 1_000.0 / 3 / 400) < 1e-12)
        #expect(run.coresBusy == 1.5)
        #expect(run.outputBytesPerItem == 84)
        #expect(run.recognizerShare == nil && run.recognizerSpeedInRun == nil, "no recognizer time: no share")
    }

    /// The recognizer's share is its CPU seconds in the run over the jobs' wall time; its speed in the run
    /// is its words per CPU second there over the raw words per CPU second; ratio per job = share × speed
    /// when the raw speed's CPU and wall time agree.
    @Test func theRecognizersShareAndSpeedComeFromItsTimeInTheRun() {
        let run = CorpusScaleBenchmark.Run(jobs: 2, items: 1_000, wallSeconds: 2, cpuSeconds: 3.8, rawWordsPerSecond: 500, rawWordsPerCPUSecond: 500,
                                           outputBytes: 84_000, recognizerCPUSeconds: 2.5)
        #expect(run.recognizerShare == 0.625)  // 2.5 of 2 s × 2 jobs
        #expect(run.recognizerSpeedInRun == 0.8)  // 1,000 words in 2.5 CPU s = 400 a CPU second, of 500
        #expect(abs(run.ratioPerJob - run.recognizerShare! * run.recognizerSpeedInRun!) < 1e-12)
        let noTime = CorpusScaleBenchmark.Run(jobs: 2, items: 1_000, wallSeconds: 0, cpuSeconds: 0, rawWordsPerSecond: 0, rawWordsPerCPUSecond: 0,
                                              outputBytes: 0, recognizerCPUSeconds: 0)
        #expect(noTime.recognizerShare == nil && noTime.recognizerSpeedInRun == nil)
    }

    /// The share is summarised over every run, steady or not (drift does not move it); the speed in the run,
    /// which compares the run with raw blocks, over the same runs as the ratio. One run without recognizer
    /// time leaves both unknown.
    @Test func theSharesSummaryTakesEveryRun() {
        func run(share: Double, spread: Double, recognizer: Bool = true) -> CorpusScaleBenchmark.Run {
            CorpusScaleBenchmark.Run(jobs: 2, items: 1_000, wallSeconds: 1, cpuSeconds: 2, rawWordsPerSecond: 1_000, rawWordsPerCPUSecond: 1_000,
                                     outputBytes: 1_000, rawSpread: spread, recognizerCPUSeconds: recognizer ? share * 2 : nil)
        }
        let summary = CorpusScaleBenchmark.summaries([run(share: 0.6, spread: 0.5), run(share: 0.5, spread: 0), run(share: 0.7, spread: 0.9)])[0]
        #expect(summary.steadyRuns == 1)
        #expect(summary.recognizerShare == 0.6)
        #expect(summary.recognizerShareRange == 0.5...0.7)
        #expect(summary.recognizerSpeedInRun == 1.0)  // the steady run's: 1,000 words in 1 CPU s
        let partial = CorpusScaleBenchmark.summaries([run(share: 0.6, spread: 0), run(share: 0.6, spread: 0, recognizer: false)])[0]
        #expect(partial.recognizerShare == nil && partial.recognizerShareRange == nil && partial.recognizerSpeedInRun == nil)
    }

    /// Rounds are summarised per jobs value, in the order they ran: medians, and the ratio's range.
    @Test func roundsAreSummarisedByJobs() {
        func run(jobs: Int, wall: Double) -> CorpusScaleBenchmark.Run {
            CorpusScaleBenchmark.Run(jobs: jobs, items: 1_000, wallSeconds: wall, cpuSeconds: 2, rawWordsPerSecond: 1_000, rawWordsPerCPUSecond: 1_000,
                                     outputBytes: 1_000)
        }
        let runs = [run(jobs: 1, wall: 2), run(jobs: 2, wall: 1), run(jobs: 1, wall: 4), run(jobs: 2, wall: 2), run(jobs: 1, wall: 1), run(jobs: 2, wall: 0.5)]
        let summaries = CorpusScaleBenchmark.summaries(runs)
        #expect(summaries.map(\.jobs) == [1, 2])
        #expect(summaries.map(\.runs) == [3, 3])
        #expect(summaries[0].ratioPerJob == 0.5)  // 1,000 items in 2 s of 1 job over 1,000 words/s
        #expect(summaries[0].ratioPerJobRange == 0.25...1.0)
        #expect(summaries[1].ratioPerJob == 0.5)
        #expect(summaries[1].ratioPerJobRange == 0.25...1.0)
        #expect(summaries[1].coresBusy == 2)
        #expect(summaries.map(\.steadyRuns) == [3, 3])
    }

    /// The spread of raw-speed measurements is the fastest over the slowest, minus 1; none, or a zero
    /// speed, is no measure of steadiness at all.
    @Test(arguments: [([400.0, 500, 440], 0.25), ([300.0], 0), ([], .infinity), ([0.0, 100], .infinity)])
    func rawSpreadIsTheFastestOverTheSlowest(measurements: [Double], spread: Double) {
        #expect(CorpusScaleBenchmark.spread(measurements) == spread)
    }

    /// A run measured while the machine's speed moved (raw spread over `steadySpread`) is left out of the
    /// medians when a steady run with the same jobs exists; with none steady, every run counts and the
    /// summary says so (`steadyRuns` 0).
    @Test func unsteadyRunsAreLeftOutWhileASteadyOneExists() {
        func run(jobs: Int, wall: Double, spread: Double) -> CorpusScaleBenchmark.Run {
            CorpusScaleBenchmark.Run(jobs: jobs, items: 1_000, wallSeconds: wall, cpuSeconds: 2, rawWordsPerSecond: 1_000, rawWordsPerCPUSecond: 1_000,
                                     outputBytes: 1_000, rawSpread: spread)
        }
        let edge = CorpusScaleBenchmark.steadySpread
        let runs = [run(jobs: 1, wall: 2, spread: 0.5), run(jobs: 1, wall: 4, spread: edge), run(jobs: 1, wall: 1, spread: 0.3),
                    run(jobs: 2, wall: 1, spread: 0.2), run(jobs: 2, wall: 2, spread: 0.9)]
        #expect(runs.map(\.isSteady) == [false, true, false, false, false])
        let summaries = CorpusScaleBenchmark.summaries(runs)
        #expect(summaries.map(\.runs) == [3, 2])
        #expect(summaries.map(\.steadyRuns) == [1, 0])
        #expect(summaries[0].ratioPerJob == 0.25)  // the steady run's alone: 1,000 items in 4 s
        #expect(summaries[0].ratioPerJobRange == 0.25...0.25)
        #expect(summaries[1].ratioPerJob == 0.375)  // both, as neither is steady: 0.5 and 0.25
    }
}
