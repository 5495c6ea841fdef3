import Foundation
import Testing
@testable import LanguageRecognition

/// Pins the committed model's answers on a small fixture (`Fixtures/golden.tsv`: text, candidates, expected
/// top language). Set `LANGBENCH_RECORD_GOLDEN=1` to rewrite the expectations after retraining on purpose.
@Suite("Golden fixture")
struct GoldenTests {
    @Test("the committed model answers the golden fixture")
    func golden() throws {
        let url = TestModel.fixture("golden.tsv")
        let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map(String.init)
        var recorded = [lines[0]]
        for line in lines.dropFirst() {
            let f = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            let candidates = f[1].isEmpty ? [] : f[1].split(separator: ",").map(String.init)
            let got = LanguageRecognizer(model: TestModel.shared, constraints: candidates).recognize(f[0]).languageOrUndetermined
            recorded.append([f[0], f[1], got].joined(separator: "\t"))
            if ProcessInfo.processInfo.environment["LANGBENCH_RECORD_GOLDEN"] == nil {
                #expect(got == f[2], "\(f[0]) [\(f[1])]")
            }
        }
        if ProcessInfo.processInfo.environment["LANGBENCH_RECORD_GOLDEN"] != nil {
            let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/golden.tsv")
            try (recorded.joined(separator: "\n") + "\n").write(to: source, atomically: true, encoding: .utf8)
        }
    }
}
