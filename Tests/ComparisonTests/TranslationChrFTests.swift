import Checks
import Foundation
@testable import Generation
import GenerationTestSupport
import Corpus
@testable import Comparison
import TestSupport
import Testing

/// Translation quality gated per language: the pivot's translate-in chrF, paired per message, on fixed records
/// (bg, de and ru have 12 translated pivot messages each).
struct TranslationChrFTests {
    /// The base records, every translated pivot message given a chrF between 35 and 85.
    static func scored() throws -> [GenerationRecord] {
        try GenerationFixtures.records("base").enumerated().map { index, record in
            var record = record
            if record.route == .pivot && record.translateIn != nil { record.translateInChrF = Double(35 + (index * 37) % 50) }
            return record
        }
    }

    static func lowered(_ records: [GenerationRecord], lang: String, by points: Double, every step: Int = 1) -> [GenerationRecord] {
        var seen = 0
        return records.map { record in
            var record = record
            if record.lang.identifier == lang, let score = record.translateInChrF {
                if seen % step == 0 { record.translateInChrF = max(0, score - points) }
                seen += 1
            }
            return record
        }
    }

    static func chrF(_ comparison: Comparison, _ lang: String) throws -> MetricCheck {
        try #require(comparison.checks.first { $0.metric == MetricName.translateInChrF && $0.key[.lang] == lang })
    }

    @Test(.needs(.simulation)) func aLanguageWhoseTranslationsGotWorseIsARegressionAndOnlyIt() throws {
        let base = try Self.scored()
        let comparison = try TokenCostTests.compare(base, Self.lowered(base, lang: "bg", by: 15))
        let bg = try Self.chrF(comparison, "bg")
        #expect(bg.status == .regression && bg.gating)
        #expect(abs(bg.delta + 0.15) < 0.02, "\(bg.delta)")
        #expect(bg.key.description == "route=pivot lang=bg")
        #expect(bg.n == 12)
        for lang in ["de", "ru"] { #expect(try Self.chrF(comparison, lang).status == .unchanged) }
        #expect(comparison.regressions.map(\.metric) == [MetricName.translateInChrF])
        // The other way round: better translations, an improvement that never fails a job.
        let better = try TokenCostTests.compare(Self.lowered(base, lang: "bg", by: 15), base)
        #expect(try Self.chrF(better, "bg").status == .improvement && better.regressions.isEmpty)
    }

    /// Scores against other references are another measurement: the compare names both files, refuses without
    /// `--allow-mismatch`, and with it judges no translation quality.
    @Test func scoresAgainstOtherReferencesAreNeverCompared() throws {
        let base = try Self.scored()
        let report = { (records: [GenerationRecord], references: String) in
            var settings = GenerationFixtures.settings
            settings.references = references
            return RunResults(path: references, detection: nil,
                              generation: GenerationReport(records: records, settings: settings, warmupRuns: 0, provenance: GenerationFixtures.provenance("x")))
        }
        let (a, b) = (report(base, "refs.tsv (SHA-256 aaaaaaaaaaaa)"), report(Self.lowered(base, lang: "bg", by: 40), "refs.tsv (SHA-256 bbbbbbbbbbbb)"))
        #expect { try Comparison(base: a, current: b, thresholds: .default, latency: .skip) } throws: { error in
            "\(error)".contains("translation references differ: refs.tsv (SHA-256 aaaaaaaaaaaa) vs refs.tsv (SHA-256 bbbbbbbbbbbb)")
        }
        let allowed = try Comparison(base: a, current: b, thresholds: .default, allowMismatch: true, latency: .skip)
        #expect(!allowed.checks.contains { $0.metric == MetricName.translateInChrF })
        #expect(allowed.regressions.isEmpty)
    }

    /// The threshold is in the test, not a filter on the estimate: a mean drop of 5.5 points whose messages scatter ±3
    /// about it is no evidence of a drop beyond 5, though it is of a drop (against no change, p < 0.001).
    @Test func aDropJustBeyondTheThresholdIsNotRedOnItsEstimateAlone() throws {
        let base = try Self.scored()
        var seen = 0
        let current = base.map { record in
            var record = record
            if record.lang.identifier == "de", let score = record.translateInChrF {
                record.translateInChrF = score - 5.5 + (seen % 2 == 0 ? 3 : -3)
                seen += 1
            }
            return record
        }
        let check = try Self.chrF(try TokenCostTests.compare(base, current), "de")
        #expect(abs(check.delta + 0.055) < 1e-9)
        #expect(check.pValue.map { $0 < 0.001 } == true)
        #expect(check.status == .unchanged && check.regressionP > 0.05, "\(check.regressionP)")
    }

    @Test(.needs(.simulation)) func aDropWithinTheThresholdIsNotARegressionEvenWhenEveryMessageMoved() throws {
        let base = try Self.scored()
        let check = try Self.chrF(try TokenCostTests.compare(base, Self.lowered(base, lang: "de", by: 4)), "de")
        #expect(check.status == .unchanged)
        #expect(check.pValue.map { $0 < 0.001 } == true)  // significant, but 4 points are within the default 5
    }

    @Test(.needs(.simulation)) func unchangedTranslationsSpendNoAlpha() throws {
        let base = try Self.scored()
        let same = try TokenCostTests.compare(base, base)
        let unscored = try TokenCostTests.compare(try GenerationFixtures.records("base"), try GenerationFixtures.records("base"))
        for lang in ["bg", "de", "ru"] {
            let check = try Self.chrF(same, lang)
            #expect(check.status == .unchanged && !check.gating && check.delta == 0)
        }
        // Without scores there is no check at all; with unchanged ones, every other check keeps its level.
        #expect(!unscored.checks.contains { $0.metric == MetricName.translateInChrF })
        #expect(same.alphaShares == unscored.alphaShares)
        let levels = { (c: Comparison) in c.checks.filter { $0.metric != MetricName.translateInChrF }.map(\.level) }
        #expect(levels(same) == levels(unscored))
    }

    @Test(.needs(.simulation)) func aFewChangedMessagesCannotReachTheLevelAndSaySo() throws {
        let base = try Self.scored()
        // Two of twelve messages lost 40 points: a mean drop of 6.7 points, but 2⁻² is far above any share of α.
        let check = try Self.chrF(try TokenCostTests.compare(base, Self.lowered(base, lang: "ru", by: 40, every: 6)), "ru")
        #expect(check.delta < -0.05)
        #expect(check.status == .unchanged && !check.gating)
        #expect(check.thresholdText == "5.0 points")
    }

    @Test func theThresholdsCarryBothTranslationKeys() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("chrf-thresholds-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: url) }  // a temporary file: nothing to keep if removal fails
        try Data(#"{"preset": "strict", "translation_lost_chrf": 30}"#.utf8).write(to: url)
        let thresholds = try Thresholds.named(url.path)
        #expect(thresholds.translationChrFPoints == 2 && thresholds.translationLostChrF == 30)
        #expect(Thresholds.default.translationChrFPoints == 5 && Thresholds.relaxed.translationChrFPoints == 10)
        try Data(#"{"translation_chrf_points": 120}"#.utf8).write(to: url)
        #expect(throws: (any Error).self) { try Thresholds.named(url.path) }
    }
}

/// Records pair up variant by variant: a run of other variants (the engines side by side against a run of one
/// engine) shares no pair with the other and would judge nothing, so compare names the difference and refuses.
struct VariantMismatchTests {
    @Test func runsOfOtherVariantsAreRefusedNamingThem() throws {
        let single = RunResults(path: "a", detection: nil, generation: try GenerationFixtures.report("base"))
        let both = RunResults(path: "b", detection: nil, generation: try GenerationFixtures.variants())
        #expect { _ = try Comparison(base: single, current: both, thresholds: .default, latency: .skip) } throws: { error in
            "\(error)".contains("variants differs: none vs a, b")
        }
        let same = try Comparison(base: both, current: both, thresholds: .default, latency: .skip)
        #expect(same.mismatches.isEmpty && same.regressions.isEmpty)
    }

    @Test func aChangedPairSetIsNamed() throws {
        let report = { (pairs: [String]) in
            var engine = TranslationEngine(kind: "apertium", name: "apertium", version: "0.11.7")
            engine.pairs = pairs
            var settings = GenerationFixtures.settings
            settings.translator = engine
            return RunResults(path: "x", detection: nil, generation: try GenerationFixtures.report("base", settings: settings))
        }
        #expect { _ = try Comparison(base: try report(["en-es", "es-en"]), current: try report(["es-en"]), thresholds: .default, latency: .skip) } throws: { error in
            "\(error)".contains("translator differs: apertium 0.11.7 (pairs en-es, es-en) vs apertium 0.11.7 (pairs es-en)")
        }
    }
}
