import Foundation
import Testing
import TestSupport
@testable import Recognizer

/// Pins the committed model's answers on a small fixture: `Fixtures/golden-texts.tsv` (text, candidates)
/// → `Snapshots/golden.tsv` (text, candidates, top language). Re-record with `LANGBENCH_RECORD_SNAPSHOTS=1`
/// after retraining on purpose, and review the diff.
@Suite("Golden fixture")
struct GoldenTests {
    @Test("the committed model answers the golden fixture")
    func golden() throws {
        let lines = try String(contentsOf: TestModel.fixture("golden-texts.tsv"), encoding: .utf8).split(separator: "\n")
        var rendered = "text\tcandidates\tdominant\n"
        for line in lines.dropFirst() {
            let f = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            let candidates = f[1].isEmpty ? [] : f[1].split(separator: ",").map(String.init)
            let result = LanguageRecognizer(model: TestModel.shared, constraints: candidates).recognize(f[0])
            rendered += "\(f[0])\t\(f[1])\t\(result.languageOrUndetermined)\n"
        }
        Snapshot.assert(rendered, named: "golden.tsv")
    }
}
