@testable import Suite
import TestSupport
import Testing

/// What `bench detector` prints, from its figures.
struct DetectorBenchFiguresTests {
    @Test func benchOutputEndsWithTheMachineReadableLine() {
        var output = DetectorBenchFigures(modelPath: "Models/recognizer.lbrm", modelBytes: 3 * 1_048_576, loadMilliseconds: 42.25,
                                         residentBytes: 40 * 1_048_576, words: 702, corpora: 2, candidates: 24,
                                         builtinWordsPerSecond: 150_000.7)
        output.peer = .init(name: "exec:scripts/detectors/lingua", wordsPerSecond: 3000, startupSeconds: 12.5, failure: nil)
        Snapshot.assert(output.text, named: "bench-detector.txt")
        #expect(output.text.hasSuffix("\nwords_per_second=150000\n"))
    }

    @Test func benchOutputComparesWithABaselineModelByMedianPairRatio() {
        var output = DetectorBenchFigures(modelPath: "new.lbrm", modelBytes: 1_048_576, loadMilliseconds: 50, residentBytes: nil,
                                         words: 10, corpora: 1, candidates: 2, builtinWordsPerSecond: 100)
        output.baseline = .init(path: "old.lbrm", loadMilliseconds: 40, modelWordsPerSecond: [90, 100, 110, 120],
                                baselineWordsPerSecond: [100, 100, 100, 100])
        #expect(output.baseline?.medianRatio == 1.05)
        #expect(output.text.contains("model vs baseline, 4 interleaved ABBA block pairs: 110 vs 100 words/s (medians), ratio 1.050 "
                                     + "(median; pairs 0.900–1.200)\n"), "\(output.text)")
    }
}
