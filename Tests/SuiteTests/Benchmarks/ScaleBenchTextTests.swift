@testable import Suite
import TestSupport
import Testing

/// What `bench corpus-scale` and `bench results-scale` print, from fixed figures: the lines people read and
/// the machine-readable last line a script parses.
struct ScaleBenchTextTests {
    @Test func corpusScalePrintsEachMeasurementAndTheSummary() {
        let steady = CorpusScaleBenchmark.Run(jobs: 1, items: 1_000_000, wallSeconds: 4, cpuSeconds: 4.2, rawWordsPerSecond: 300_000,
                                              rawWordsPerCPUSecond: 310_000, outputBytes: 84_000_000, rawSpread: 0.05, recognizerCPUSeconds: 3.1)
        let unsteady = CorpusScaleBenchmark.Run(jobs: 2, items: 1_000_000, wallSeconds: 2.5, cpuSeconds: 4.8, rawWordsPerSecond: 290_000,
                                                rawWordsPerCPUSecond: 300_000, outputBytes: 84_000_000, rawSpread: 0.2)
        let scaling = CorpusScaleSchedule.Scaling(value: 0.93, spread: 0.04, together: 540_000, single: 290_000)
        var text = CorpusScaleBenchmark.Text.corpus(items: 1_000_000, seed: 1, distinctWords: 702, bytes: 16_500_000)
        text += CorpusScaleBenchmark.Text.event(.scaling(scaling), jobs: 2)
        text += CorpusScaleBenchmark.Text.event(.run(round: 1, steady, rawAround: [295_000, 305_000]), jobs: 2)
        text += CorpusScaleBenchmark.Text.event(.run(round: 1, unsteady, rawAround: [260_000, 312_000]), jobs: 2)
        let summaries = CorpusScaleBenchmark.summaries([steady, unsteady])
        text += CorpusScaleBenchmark.Text.summaries(summaries, peakResidentBytes: 95 * 1_048_576)
        text += CorpusScaleBenchmark.Text.lastLine(items: 1_000_000, repeats: 1, summaries: summaries, runs: [steady, unsteady], scaling: scaling,
                                                   peakResidentBytes: 95 * 1_048_576)
        Snapshot.assert(text, named: "bench-corpus-scale.txt")
        let unmeasured = CorpusScaleBenchmark.Text.lastLine(items: 1, repeats: 1, summaries: summaries, runs: [unsteady], scaling: nil, peakResidentBytes: nil)
        #expect(unmeasured.contains(" peak_rss_mb=nan ") && unmeasured.contains(" raw_scaling=nan raw_scaling_spread=nan "))
    }

    @Test func resultsScalePrintsEachStepAndTheLastLine() {
        let compare = ResultsScaleBenchmark.Step(seconds: 10.6, peakResidentBytes: 49 * 1_048_576, checks: 3, regressions: 0)
        let merge = ResultsScaleBenchmark.Step(seconds: 20, peakResidentBytes: 53 * 1_048_576)
        let text = ResultsScaleBenchmark.writtenLine(items: 10_000_000, configs: 1, bytes: 3_722_700_000, seconds: 119.5)
            + ResultsScaleBenchmark.stepLine(.compare, compare, wall: 10.63, items: 10_000_000, configs: 1)
            + ResultsScaleBenchmark.stepLine(.merge, merge, wall: 20.03, items: 10_000_000, configs: 1)
            + ResultsScaleBenchmark.lastLine(items: 10_000_000, configs: 1, compare: compare, merge: merge)
        Snapshot.assert(text, named: "bench-results-scale.txt")
    }
}
