@testable import Detection
import Foundation
@testable import Generation
import GenerationTestSupport
@testable import Corpus
@testable import Suite
import TestSupport
import Testing

/// The committed `Reports/baseline/` is the detection reference CI compares against: the default suite's
/// detection half (bench.json's corpora and configs, the committed recognizer model) must reproduce it
/// item for item. When the model or a corpus changes, re-record the baseline's detection (docs/ci.md).
struct BaselineDetectionTests {
    static let baseline = PipelineFixture.repository.appendingPathComponent("Reports/baseline")

    @Test(.needs(.simulation)) func theDefaultSuitesDetectionReproducesTheCommittedBaseline() async throws {
        let root = PipelineFixture.repository
        let suite = try BenchConfig.load(root.appendingPathComponent(BenchConfig.defaultPath).path)
        let half = try #require(suite.detection, "bench.json has a detection half")
        // As `langbench run` resolves them: bench.json's configs, else the defaults with its detector.
        let configs = half.configs ?? DetectionConfig.defaults(detector: half.detector)
        // Paths in bench.json are read from its directory: `load` gives them whole.
        let profile = try ModelProfile.load(suite.generation?.profile ?? ModelProfile.defaultPath)
        let corpus = try CorpusLoader().load(half.corpora)
        let directory = try Fixture.temporaryDirectory()
        _ = try await DetectionJob(corpus: corpus, configs: configs, supported: profile.supportedLanguages, factory: DetectorFactory(),
                                   directory: directory, command: ["test"], jobs: ProcessInfo.processInfo.activeProcessorCount).run()

        let expected = try DetectionStore.readRun(Self.baseline.path).results
        let got = try DetectionStore.readRun(directory.path).results
        let differences = Self.differences(expected: expected, got: got)
        // The differences themselves, not the whole list as an expression: a new model may move thousands.
        if !differences.isEmpty {
            Issue.record("""
            \(differences.count) of \(expected.count) baseline results differ from this checkout's detection \
            (re-record the baseline's detection: docs/ci.md); the first:
            \(differences.prefix(10).joined(separator: "\n"))
            """)
        }
    }

    /// One line per (item, config) whose prediction differs or that only one side has, in the baseline's order.
    static func differences(expected: [DetectionResult], got: [DetectionResult]) -> [String] {
        func key(_ result: DetectionResult) -> String { "\(result.itemID)\t\(result.config)" }
        let fresh = Dictionary(got.map { (key($0), $0) }, uniquingKeysWith: { first, _ in first })
        var lines: [String] = []
        for base in expected {
            let label = fresh[key(base)]?.predictedLabel ?? "no result"
            if label != base.predictedLabel {
                lines.append("\(base.itemID) [\(base.config)] (\(base.lang.identifier)): expected \(base.predictedLabel), got \(label)")
            }
        }
        let known = Set(expected.map(key))
        for result in got where !known.contains(key(result)) {
            lines.append("\(result.itemID) [\(result.config)] (\(result.lang.identifier)): not in the baseline, got \(result.predictedLabel)")
        }
        return lines
    }
}
