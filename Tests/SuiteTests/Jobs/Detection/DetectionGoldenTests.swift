@testable import Support
@testable import Detection
import Foundation
@testable import Generation
import GenerationTestSupport
@testable import Corpus
@testable import Suite
import ByteIO
import TestSupport
import Testing

/// The files CI and `compare`/`merge` read, pinned byte for byte: the per-item and summary CSVs and the
/// Markdown body, for a fixture run and for the authored corpora with the built-in recognizer.
struct DetectionGoldenTests {
    /// The Markdown without what a run may not repeat: the throughput rows and the provenance footer.
    static func body(_ markdown: String) -> String {
        let text = DetectionJobTests.stableMarkdown(markdown)
        return String(text[..<(text.range(of: "\n---\n")?.lowerBound ?? text.endIndex)]) + "\n"
    }

    /// A file of the run with the checkout's path written `$REPO`, so the goldens hold in any checkout.
    static func read(_ directory: URL, _ file: String) throws -> String {
        try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
            .replacingOccurrences(of: PipelineFixture.repository.path, with: "$REPO")
    }

    @Test func fixtureRunFiles() async throws {
        let directory = try Fixture.temporaryDirectory()
        _ = try await RunFixtures.detect(into: directory)
        Snapshot.assert(try Self.read(directory, DetectionOutput.itemsFile), named: "detection-items.csv")
        Snapshot.assert(try Self.read(directory, DetectionOutput.summaryFile), named: "detection-summary.csv")
        Snapshot.assert(try Self.read(directory, DetectionOutput.resultsLog), named: "detection-results.jsonl")
    }

    /// The authored corpora through the three default configs: the items CSV (6,000+ rows) is pinned by
    /// its SHA-256, the summary and the Markdown body in full.
    @Test func authoredCorporaWithTheBuiltinRecognizer() async throws {
        let root = PipelineFixture.repository
        let corpus = try CorpusLoader().load(["Corpora/short-phrases.tsv", "Corpora/cyrillic-confusables.tsv"].map {
            root.appendingPathComponent($0).path
        })
        let directory = try Fixture.temporaryDirectory()
        _ = try await DetectionJob(corpus: corpus, configs: DetectionConfig.defaults(), supported: try PipelineFixture.profile().supportedLanguages,
                                   factory: DetectorFactory(), directory: directory, command: ["test"]).run()
        let items = try Data(contentsOf: directory.appendingPathComponent(DetectionOutput.itemsFile))
        Snapshot.assert("\(SHA256.hex(items))  \(DetectionOutput.itemsFile)\n", named: "authored-detection-items.sha256")
        Snapshot.assert(try Self.read(directory, DetectionOutput.summaryFile), named: "authored-detection-summary.csv")
        Snapshot.assert(Self.body(try Self.read(directory, DetectionOutput.markdownFile)), named: "authored-detection.md")
    }
}
