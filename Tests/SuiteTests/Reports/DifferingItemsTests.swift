import Support
@testable import Detection
import Foundation
@testable import Generation
import Corpus
@testable import Suite
import Provenance
import TestSupport
import Testing

/// The run page's differing-items table streamed from a results log equals the one built from the
/// results in memory: the same listed rows, the same count past the cap, the same crisis count.
struct DifferingItemsTests {
    @Test func streamedFromTheLogEqualsInMemory() throws {
        let directory = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try ResultsScaleBenchmark.write(.current, items: 3_000, configs: 3, seed: 5, to: directory)
        let store = try DetectionStore(directory.path)
        let results = try store.allResults()
        var texts = ItemTexts()
        texts.crisis = ["item-000000007", "item-000000011", "item-000000012"]
        let streamed = try DifferingItems.of(store, texts: texts, crisis: texts.crisis, rowCap: 40)
        let inMemory = DifferingItems.of(results, configs: store.configs, texts: texts, crisis: texts.crisis, rowCap: 40)
        #expect(streamed.rows > 40, "more differing items than the cap")
        #expect(streamed.table == inMemory.table && streamed.table.rows.count == 40)
        #expect(streamed.rows == inMemory.rows && streamed.hidden == inMemory.hidden)
        #expect(streamed.hidden > 0)
        // The misdetected items are built in the same pass, the same either way.
        #expect(streamed.misdetected.table == inMemory.misdetected.table && streamed.misdetected.rows == inMemory.misdetected.rows)
        #expect(streamed.misdetected.rows > 40 && streamed.misdetected.hidden > 0)
    }

    /// Each wrong answer is one row, with whether its true language was a candidate; right answers and crisis items are
    /// not listed (crisis ones counted).
    @Test func misdetectedItemsListEveryWrongAnswerOnce() {
        func result(_ id: String, _ lang: String, _ config: String, _ predicted: String) -> DetectionResult {
            DetectionResult(itemID: id, lang: LanguageCode(normalised: lang), tags: [], length: .one, config: config, detector: "builtin",
                            predicted: LanguageCode(normalised: predicted), confidence: 0.5)
        }
        let results = [
            result("a", "uk", "plain", "ru"), result("a", "uk", "set", "ru"),   // wrong in both; uk is a candidate of "set"
            result("b", "mk", "plain", "mk"), result("b", "mk", "set", "bg"),   // wrong in "set" only; mk is not a candidate
            result("c", "ru", "plain", "uk"), result("c", "ru", "set", "ru"),   // crisis: counted, never listed
        ]
        var texts = ItemTexts()
        texts.crisis = ["c"]
        let table = DifferingItems.of(results, configs: ["plain", "set"], candidates: [nil, ["ru", "uk", "bg"]], texts: texts, crisis: texts.crisis)
        let misdetected = table.misdetected
        #expect(misdetected.rows == 3 && misdetected.hidden == 1)
        #expect(misdetected.table.rows.map { row in [0, 1, 2, 3, 5].map { row[$0].display } } == [
            ["plain", "a", "uk", "ru", "unconstrained"], ["set", "a", "uk", "ru", "yes"], ["set", "b", "mk", "bg", "no"],
        ])
    }

    /// The page a run writes (the table streamed) is the page rendered from its results in memory.
    @Test(.needs(.simulation)) func aWrittenPageEqualsTheOneRenderedInMemory() throws {
        let directory = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try ResultsScaleBenchmark.write(.current, items: 20_000, configs: 3, seed: 3, to: directory)
        let store = try DetectionStore(directory.path)
        let rendered = RunPage.render(detection: store.report, results: try store.allResults(), generation: nil, replies: [:],
                                      texts: ItemTexts.load(store.report.provenance.corpora), runID: directory.lastPathComponent)
        let written = try String(contentsOf: directory.appendingPathComponent(RunPage.file), encoding: .utf8)
        #expect(written == rendered)
        #expect(written.contains("counted here and listed in detection-items.csv"), "past the page's row cap")
    }
}
