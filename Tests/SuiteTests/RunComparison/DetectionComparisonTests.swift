@testable import Support
import Checks
@testable import Detection
import Foundation
@testable import Generation
@testable import Corpus
@testable import Suite
@testable import Comparison
import TestSupport
import Testing

struct DetectionComparisonTests {
    @Test func identicalRunsHaveNoRegression() async throws {
        let a = try await RunFixtures.detect(), b = try await RunFixtures.detect()
        let comparison = try Comparison(base: RunFixtures.results(a), current: RunFixtures.results(b), thresholds: .default)
        #expect(comparison.regressions.isEmpty && comparison.improvements.isEmpty)
        #expect(comparison.verdict == "pass")
    }

    @Test func removingConstraintsIsARegressionWithTheRightItems() async throws {
        let base = try await RunFixtures.detect(constrained: true), degraded = try await RunFixtures.detect(constrained: false)
        let comparison = try Comparison(base: RunFixtures.results(base), current: RunFixtures.results(degraded), thresholds: .default)
        let overall = try #require(comparison.checks.first { $0.key == CheckKey([.config: "main"]) })
        #expect(overall.status == .regression)
        #expect(overall.pValue! < 1e-4)  // 60 broken (uk), 20 fixed (ru): p ≈ 8.6e-6
        #expect(abs(overall.delta - (-40.0 / 80.0)) < 1e-12)
        #expect(comparison.brokenItems["main"] == (0..<60).map { String(format: "uk-%03d", $0) })
        // Languages with at least 40 items are checked alone (in the one Holm family of the compare):
        // 60 Ukrainian items are, and all broke; 20 Russian items are not.
        #expect(comparison.checks.first { $0.key == CheckKey([.config: "main", .lang: "uk"]) }?.status == .regression)
        #expect(!comparison.checks.contains { $0.key[.lang] == "ru" })
        #expect(comparison.notes.contains { $0.contains("detection config 'main' changed") })
        // Weighed by the committed matrix, 60 uk→ru errors (3 each) for 20 ru→uk (1 each) raise the cost-weighted error too.
        #expect(comparison.checks.first { $0.metric == MetricName.confusionCost }?.status == .regression)
        // The reverse is an improvement and never fails the job.
        let reverse = try Comparison(base: RunFixtures.results(degraded), current: RunFixtures.results(base), thresholds: .default)
        #expect(reverse.regressions.isEmpty && reverse.improvements.count == 3)
    }

    @Test func smallDropsAreNotRegressions() throws {
        // 3 broken, 1 fixed out of 1000: 0.2 points and p = 0.625 — neither rule fires.
        func result(_ i: Int, _ right: Bool, _ config: String = "c") -> DetectionResult {
            DetectionResult(itemID: "i\(i)", lang: LanguageCode(normalised: "ru"), tags: [], length: .one, config: config, detector: "d",
                            predicted: LanguageCode(normalised: right ? "ru" : "uk"), confidence: nil, error: nil)
        }
        let base = (0..<1000).map { result($0, $0 != 0) }
        let current = (0..<1000).map { result($0, !(1...3).contains($0)) }
        let check = MetricCheck.holm([DetectionComparer.check(Array(zip(base, current)), key: CheckKey([.config: "main"]), points: 0.5, family: "f")], alpha: 0.05)[0]
        #expect(check.status == .unchanged)
    }

    @Test func differentCorporaAreNotComparable() async throws {
        let a = try await RunFixtures.detect()
        var other = RunFixtures.corpus
        other.sources[0].sha256 = String(repeating: "b", count: 64)
        let b = try await RunFixtures.detect(other)
        #expect(throws: ComparisonError.self) { try Comparison(base: RunFixtures.results(a), current: RunFixtures.results(b), thresholds: .default) }
        let allowed = try Comparison(base: RunFixtures.results(a), current: RunFixtures.results(b), thresholds: .default, allowMismatch: true)
        #expect(allowed.notes.first == "mismatch allowed: detection corpus synthetic changed: 80 items (SHA-256 aaaaaaaaaaaa) → 80 items (SHA-256 bbbbbbbbbbbb)")
    }

    /// A corpus only one run read (the outside corpus, built at set-up, on one side) leaves its items unpaired: said, not refused.
    @Test func aCorpusOnlyOneRunReadIsNamedAndItsItemsLeftOut() async throws {
        let a = try await RunFixtures.detect()
        var wider = RunFixtures.corpus
        let extra = (0..<10).map { CorpusItem(id: String(format: "out-uk-%03d", $0), lang: LanguageCode(normalised: "uk"), text: "слово\($0)") }
        wider.items += extra
        wider.sources.append(CorpusSource(path: "Corpora/outside/outside.tsv", format: .tsv, sha256: String(repeating: "c", count: 64), items: extra.count))
        let b = try await RunFixtures.detect(wider)
        let comparison = try Comparison(base: RunFixtures.results(a), current: RunFixtures.results(b), thresholds: .default)
        #expect(comparison.mismatches.isEmpty)
        #expect(comparison.notes.contains("detection corpus Corpora/outside/outside.tsv (10 items) is in current only: its items are not compared"))
        #expect(comparison.checks.first { $0.key.description == "config=main" }?.n == 80)
    }

    /// A rebuilt item list names the packages that changed under it.
    @Test func aChangedPackageIsNamed() {
        let old = [SourcePackage(name: "firefox-esr-l10n-ru", version: "153.8.0esr", sha256: "a"), SourcePackage(name: "unicode-cldr-core", version: "46", sha256: "b")]
        let new = [SourcePackage(name: "firefox-esr-l10n-ru", version: "153.9.0esr", sha256: "c"), SourcePackage(name: "libreoffice-l10n-ru", version: "7.4", sha256: "d"),
                   SourcePackage(name: "unicode-cldr-core", version: "46", sha256: "e")]
        #expect(CorpusDifference.packageChanges(old, new) == ["firefox-esr-l10n-ru 153.8.0esr → 153.9.0esr", "+libreoffice-l10n-ru 7.4",
                                                              "unicode-cldr-core 46 rebuilt (another SHA-256)"])
    }

    @Test func thresholdsFileOverridesAPreset() throws {
        let json = #"{"preset":"strict","latency_ratio":0.2}"#
        let thresholds = try StrictJSON.decode(Thresholds.self, from: Data(json.utf8), path: "t.json")
        #expect(thresholds.latencyRatio == 0.2 && thresholds.accuracyPoints == Thresholds.strict.accuracyPoints)
        #expect(throws: ConfigurationError.self) { try StrictJSON.decode(Thresholds.self, from: Data(#"{"latency":0.2}"#.utf8), path: "t.json") }
    }

    @Test func reportFormatsGolden() async throws {
        let base = try await RunFixtures.detect(constrained: true), degraded = try await RunFixtures.detect(constrained: false)
        let comparison = try Comparison(base: RunFixtures.results(base), current: RunFixtures.results(degraded), thresholds: .default)
        Snapshot.assert(comparison.markdown.replacingOccurrences(of: RunFixtures.detector, with: "DETECTOR"), named: "compare.md")
        Snapshot.assert(comparison.junit, named: "compare.junit.xml")
        Snapshot.assert(comparison.json.replacingOccurrences(of: RunFixtures.detector, with: "DETECTOR"), named: "compare.json")
    }
}
