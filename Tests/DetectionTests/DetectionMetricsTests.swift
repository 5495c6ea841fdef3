@testable import Detection
@testable import Corpus
@testable import Provenance
import Testing

struct DetectionMetricsTests {
    static func result(_ id: String, _ gold: String, _ predicted: String?, config: String = "c", error: String? = nil) -> DetectionResult {
        DetectionResult(itemID: id, lang: LanguageCode(normalised: gold), tags: [], length: .one, config: config, detector: "d",
                        predicted: predicted.map(LanguageCode.init(normalised:)), confidence: nil, error: error)
    }

    @Test func perLanguagePrecisionRecallAndFalsePositiveRate() {
        // ru: 3 items, 2 right; uk: 2 items, 0 right (both called ru); en: 1 right; one ru abstains.
        let results = [
            Self.result("1", "ru", "ru"), Self.result("2", "ru", "ru"), Self.result("3", "ru", nil),
            Self.result("4", "uk", "ru"), Self.result("5", "uk", "ru"), Self.result("6", "en", "en"),
        ]
        let metrics = ClassificationMetrics(results)
        #expect(metrics.n == 6 && metrics.correct == 3)
        let ru = metrics.perLanguage.first { $0.lang.identifier == "ru" }!
        #expect(ru.precision == 0.5)
        #expect(abs(ru.recall - 2.0 / 3.0) < 1e-12)
        #expect(ru.falsePositiveRate == 2.0 / 3.0)  // 2 of the 3 non-ru items called ru
        let uk = metrics.perLanguage.first { $0.lang.identifier == "uk" }!
        #expect(uk.recall == 0 && uk.precision == 0 && uk.f1 == 0)
        #expect(abs(metrics.macroF1 - (ru.f1 + 0 + 1) / 3) < 1e-12)
    }

    @Test func callingEverythingRussianLooksBad() {
        let results = ["ru", "uk", "bg", "mk", "be", "sr"].flatMap { lang in (0..<10).map { Self.result("\(lang)\($0)", lang, "ru") } }
        let ru = ClassificationMetrics(results).perLanguage.first { $0.lang.identifier == "ru" }!
        #expect(ru.recall == 1)
        #expect(abs(ru.precision - 1.0 / 6.0) < 1e-12)
        #expect(ru.falsePositiveRate == 1)
    }

    @Test func equivalentCodesCountAsCorrect() {
        #expect(Self.result("1", "sr", "sr-Cyrl").correct)
        #expect(!Self.result("1", "sr", "sr-Latn").correct)
        #expect(!Self.result("1", "ru", nil, error: "boom").correct)
    }

    @Test func confusionCyrillicBlockFoldsOthers() {
        let results = [Self.result("1", "ru", "ru"), Self.result("2", "uk", "ru"), Self.result("3", "uk", "de"),
                       Self.result("4", "en", "en"), Self.result("5", "uk", nil)]
        let block = ConfusionMatrix(results).block(ConfusionMatrix.cyrillic)
        #expect(block.rows == ["ru", "uk"])
        #expect(block.columns == ["ru", "uk", "other"])
        #expect(block.counts == [[1, 0, 0], [1, 0, 2]])
    }

    @Test func pairedComparisonCountsFlipsOnSharedItems() {
        let a = [Self.result("1", "ru", "ru", config: "a"), Self.result("2", "uk", "ru", config: "a"), Self.result("3", "uk", "ru", config: "a"),
                 Self.result("4", "uk", "uk", config: "a")]
        let b = [Self.result("1", "ru", "uk", config: "b"), Self.result("2", "uk", "uk", config: "b"), Self.result("3", "uk", "uk", config: "b"),
                 Self.result("5", "uk", "ru", config: "b")]
        let echoes = ["a", "b"].map { DetectionReport.ConfigEcho(name: $0, detector: "d", candidates: "none", resolvedCandidates: nil, hints: "none") }
        let report = DetectionReport(echoes: echoes, results: a + b, timings: [], provenance: Provenance(command: ["test"], corpora: []))
        let comparison = report.comparisons[0]
        #expect(comparison.n == 3, "items 4 and 5 have a result in one config only")
        #expect(comparison.fixed == 2 && comparison.broken == 1)
        #expect(comparison.pValue == 1)
        #expect(report.items == 5)
    }
}
