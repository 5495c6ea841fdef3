import Testing
@testable import Support

@Suite struct QuantileTests {
    @Test(arguments: [
        (0.0, 1.0), (0.25, 1.75), (0.5, 2.5), (0.9, 3.7), (1.0, 4.0),
    ])
    func typeSevenInterpolation(q: Double, expected: Double) {
        #expect(abs(Quantile.of([4, 1, 3, 2], q) - expected) < 1e-12)
    }

    @Test func medianOfOddEvenAndEmpty() {
        #expect([3.0, 1, 2].median == 2)
        #expect([4.0, 1, 3, 2].median == 2.5)
        #expect([Double]().median == nil)
        #expect(Quantile.of([], 0.5).isNaN)
    }

    @Test func durationUnits() {
        #expect(Duration.milliseconds(1500).seconds == 1.5)
        #expect(Duration.microseconds(2500).milliseconds == 2.5)
    }
}

@Suite struct LabelCountsTests {
    /// gold a a a b b, predicted a b nil b a: a has 3 items, 1 right, 1 false positive; b 2 items, 1 right, 1 FP.
    @Test func countsPrecisionRecallAndF1() throws {
        var counts = LabelCounts<String>()
        for (gold, predicted) in [("a", "a"), ("a", "b"), ("a", nil), ("b", "b"), ("b", "a")] as [(String, String?)] {
            counts.add(gold: gold, predicted: predicted)
        }
        #expect(counts.total == 5 && counts.correct == 2)
        let a = try #require(counts.labels["a"]), b = try #require(counts.labels["b"])
        #expect(a.support == 3 && a.truePositives == 1 && a.falsePositives == 1)
        #expect(b.support == 2 && b.truePositives == 1 && b.falsePositives == 1)
        #expect(a.precision == 0.5 && abs(a.recall - 1.0 / 3) < 1e-12 && abs(a.f1 - 0.4) < 1e-12)
        #expect(abs(counts.macroAverage(\.recall) - (1.0 / 3 + 0.5) / 2) < 1e-12)
    }

    @Test func aLabelOnlyPredictedHasNoGoldItems() {
        var counts = LabelCounts<String>()
        counts.add(gold: "a", predicted: "c")
        #expect(counts.goldLabels == ["a"])
        #expect(counts.labels["c"]?.falsePositives == 1)
        #expect(counts.macroAverage(\.recall) == 0)
    }
}
