import Detection
import Foundation
import Corpus
@testable import Suite
import TestSupport
import Testing

/// A sweep of candidate sets declared in bench.json, beside the detection half's configs.
struct BenchConfigSweepTests {
    static let sweepJSON = #"{"sets": [{"name": "pair", "candidates": ["ru", "uk"]}, {"name": "all", "candidates": "none"}], "hints": {"ru": 0.5}}"#

    @Test func aSweepInBenchJSONAddsTwoConfigsPerSetAfterTheDefaults() throws {
        let url = try Fixture.temporaryDirectory().appendingPathComponent("bench.json")
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        try #"{"detection": {"corpora": ["c.tsv"], "sweep": \#(Self.sweepJSON)}}"#.write(to: url, atomically: true, encoding: .utf8)
        let configs = try #require(try BenchConfig.load(url.path).detection?.configs)
        #expect(configs.map(\.name) == ["unconstrained", "constrained", "constrained+priors", "sweep-pair", "sweep-pair+priors", "sweep-all", "sweep-all+priors"])
        #expect(configs[3].candidates == .list([LanguageCode(normalised: "ru"), LanguageCode(normalised: "uk")]) && configs[3].hints.isEmpty)
        #expect(configs[4].hints == [LanguageCode(normalised: "ru"): 0.5] && configs[5].candidates == .none)
    }
}
