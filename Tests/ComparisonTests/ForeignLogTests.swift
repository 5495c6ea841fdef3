import Support
import Checks
@testable import Detection
import Foundation
@testable import Comparison
import Testing

/// A run directory whose results log is another run's is not read as this run's; items one run holds and the other
/// does not are said, not silently left out of the paired checks.
struct ForeignLogTests {
    /// `count` items of `gold`, ids from `prefix`.
    static func items(_ prefix: String, _ gold: String, _ count: Int) -> [(id: String, gold: String, predicted: String)] {
        (0..<count).map { (String(format: "\(prefix)%03d", $0), gold, gold) }
    }

    @Test func anotherRunsLogOfAsManyItemsIsRefusedNamingTheLanguage() throws {
        let ours = try ConfusionCostTests.run(Self.items("r", "ru", 20) + Self.items("u", "uk", 10), costs: nil)
        let theirs = try ConfusionCostTests.run(Self.items("r", "ru", 10) + Self.items("b", "bg", 20), costs: nil)
        let log = DetectionOutput.resultsLog
        let (a, b) = (URL(fileURLWithPath: ours.path).appendingPathComponent(log), URL(fileURLWithPath: theirs.path).appendingPathComponent(log))
        try FileManager.default.removeItem(at: a)
        try FileManager.default.copyItem(at: b, to: a)
        let swapped = try RunResults.load(ours.path)
        #expect {
            try swapped.detectionResults
        } throws: { error in
            error is DamagedLog && "\(error)".contains("the log is another run's") && "\(error)".contains("config 'c'")
        }
        #expect(throws: DamagedLog.self) { try Comparison(base: theirs, current: swapped, thresholds: .default) }
    }

    @Test func itemsOnlyOneRunHoldsAreSaid() throws {
        let base = try ConfusionCostTests.run(Self.items("r", "ru", 30) + Self.items("u", "uk", 10), costs: nil)
        let current = try ConfusionCostTests.run(Self.items("r", "ru", 25) + Self.items("u", "uk", 10), costs: nil)
        let comparison = try Comparison(base: base, current: current, thresholds: .default)
        #expect(comparison.notes.contains("detection config 'c' compared on the 35 items both runs hold: 5 of base's 40 and 0 of current's 35 have no partner in the other run"),
                "\(comparison.notes)")
    }

    @Test func differentCostMatricesAreRefusedAndOneMissingIsSaid() throws {
        let predictions = ConfusionCostTests.predictions(ruWrong: 5, ukWrong: 5)
        let three = try ConfusionCostTests.run(predictions, costs: ConfusionCosts(costs: ["uk->ru": 3]))
        let five = try ConfusionCostTests.run(predictions, costs: ConfusionCosts(costs: ["uk->ru": 5]))
        #expect {
            try Comparison(base: three, current: five, thresholds: .default)
        } throws: { error in
            "\(error)".contains("the confusion-cost matrices differ (1 weights, default 1: uk->ru 3 vs 1 weights, default 1: uk->ru 5)")
        }
        let allowed = try Comparison(base: three, current: five, thresholds: .default, allowMismatch: true)
        #expect(!allowed.checks.contains { $0.metric == MetricName.confusionCost })
        let unweighed = try ConfusionCostTests.run(predictions, costs: nil)
        let oneSided = try Comparison(base: three, current: unweighed, thresholds: .default)
        #expect(oneSided.notes.contains { $0.contains("only one run was weighed by a confusion-cost matrix") })
    }
}

/// A ratio over nothing has no delta: the table shows a dash, never `nan`.
struct UndefinedDeltaTests {
    @Test func aZeroOverZeroDeltaIsADash() throws {
        let predictions = ConfusionCostTests.predictions(ruWrong: 0, ukWrong: 0)
        let run = try ConfusionCostTests.run(predictions, costs: nil)
        let comparison = try Comparison(base: run, current: run, thresholds: .default)
        let check = MetricCheck(metric: "generation.tokens_generated", key: CheckKey([.route: "direct"]), kind: .tokenCost, polarity: .lowerIsBetter,
                                base: 0, current: 0, delta: .nan, interval: nil, pValue: nil, threshold: 0.1, n: 3, status: .unchanged, rule: "")
        let table = comparison.table([check], title: "t")
        #expect(table.rows[0][4] == .text("—"))
        #expect(!MarkdownWriter.render(table).contains("nan"))
    }
}
