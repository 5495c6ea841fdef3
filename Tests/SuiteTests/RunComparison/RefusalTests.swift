@testable import Support
import Checks
@testable import Detection
import Foundation
@testable import Generation
import GenerationTestSupport
import Corpus
@testable import Suite
@testable import Comparison
import TestSupport
import Testing

/// `compare`, thresholds and `merge` refuse what would give a verdict about nothing.
struct RefusalTests {
    /// Runs of one corpus whose item ids differ (a path typed two ways, before the fix) shared no item and
    /// compared as "no regression, n 0". Refused, even with --allow-mismatch.
    @Test func runsWithNoItemInCommonAreRefused() async throws {
        let a = try await RunFixtures.detect()
        var renamed = RunFixtures.corpus
        renamed.items = renamed.items.map { var item = $0; item.id = "/abs/" + item.id; return item }
        let b = try await RunFixtures.detect(renamed)
        for allow in [false, true] {
            #expect {
                try Comparison(base: RunFixtures.results(a), current: RunFixtures.results(b), thresholds: .default, allowMismatch: allow)
            } throws: { error in
                "\(error)".hasPrefix("the runs are not comparable: the detection results share no item id (80 in base, e.g. 'ru-000'; 80 in current, e.g. '/abs/ru-000')")
            }
        }
    }

    @Test(arguments: [
        (#"{"alpha": 0}"#, "t.json (alpha): must be between 0 and 1 (exclusive), not 0.0"),
        (#"{"alpha": -1}"#, "t.json (alpha): must be between 0 and 1 (exclusive), not -1.0"),
        (#"{"alpha": 1}"#, "t.json (alpha): must be between 0 and 1 (exclusive), not 1.0"),
        (#"{"accuracy_points": -0.5}"#, "t.json (accuracy_points): must be between 0 and 100 percentage points, not -0.5"),
        (#"{"fallback_points": -2}"#, "t.json (fallback_points): must be between 0 and 100 percentage points, not -2.0"),
        (#"{"language_accuracy_points": 101}"#, "t.json (language_accuracy_points): must be between 0 and 100 percentage points, not 101.0"),
        (#"{"latency_ratio": -0.1}"#, "t.json (latency_ratio): must be a fraction between 0 and 10 (0.10 is +10%), not -0.1"),
        (#"{"token_cost_ratio": 1e17}"#, "t.json (token_cost_ratio): must be a fraction between 0 and 10 (0.10 is +10%), not 1e+17"),
        (#"{"calibration_margin": 0.8}"#, "t.json (calibration_margin): must be a factor between 1 and 10 (1.25 allows machines ×1.25 apart), not 0.8"),
        (#"{"language_min_items": 0}"#, "t.json (language_min_items): must be between 1 and 1000000000, not 0"),
        (#"{"schema_version": 7}"#, "t.json: schema_version 7 is not supported (this LangBench reads 1)"),
    ])
    func thresholdsOutOfRangeAreRefusedWithTheKey(json: String, message: String) {
        #expect {
            try StrictJSON.decode(Thresholds.self, from: Data(json.utf8), path: "t.json")
        } throws: { error in
            (error as? ConfigurationError)?.description == message
        }
    }

    /// Every thresholds key with extreme values (0, the edges of its range, just past them, 1e17, 1e308, −1e308): each
    /// loads or is refused naming the key, and a compare of the baseline to itself with what loads never traps
    /// (`token_cost_ratio` ≥ 1e17 made `compare` die of SIGILL converting the percentage to an Int).
    @Test(.needs(.simulation)) func extremeThresholdsLoadOrAreRefusedAndNeverCrashACompare() async throws {
        let extremes: [Double] = [0, 1e-300, 1, 10.000001, 100.5, 1e17, 1e308, -1e308]
        let baseline = try RunResults.load(PipelineFixture.repository.appendingPathComponent("Reports/baseline").path)
        var loaded = 0
        for key in Thresholds.keyNames {
            for value in extremes {
                let number = key == "language_min_items" ? String(format: "%.0f", min(max(value, -9e18), 9e18)) : "\(value)"
                let json = "{\"\(key)\": \(number)}"
                let thresholds: Thresholds
                do {
                    thresholds = try StrictJSON.decode(Thresholds.self, from: Data(json.utf8), path: "t.json")
                } catch let error as ConfigurationError {
                    #expect(error.description.hasPrefix("t.json (\(key)): must be"), "\(json): \(error)")
                    continue
                }
                loaded += 1
                let comparison = try Comparison(base: baseline, current: baseline, thresholds: thresholds, allowMismatch: false)
                #expect(comparison.regressions.isEmpty, "\(json)")
                _ = try JSONOutput.encode(comparison)  // throws on a non-finite number
                _ = comparison.markdown
            }
        }
        #expect(loaded > 10)
    }

    @Test func validThresholdsStillLoad() throws {
        let thresholds = try StrictJSON.decode(Thresholds.self, from: Data(#"{"schema_version": 1, "alpha": 0.01, "fallback_points": 0}"#.utf8), path: "t.json")
        #expect(thresholds.alpha == 0.01 && thresholds.fallbackPoints == 0)
    }

    /// Shards made with other sampling settings: refused naming each setting that differs and the two shards
    /// (it said only "shards ran different generation settings").
    @Test func shardsOfOtherSeedsAreRefusedNamingTheSetting() async throws {
        let first = try Fixture.temporaryDirectory(), second = try Fixture.temporaryDirectory()
        _ = try await ResumeCheckTests.job([ResumeCheckTests.items[0]], directory: first, seed: 1, resume: false).run()
        _ = try await ResumeCheckTests.job([ResumeCheckTests.items[1]], directory: second, seed: 2, resume: false).run()
        #expect {
            try RunMerger.merge([first.path, second.path], into: try Fixture.temporaryDirectory().appendingPathComponent("m"), command: ["merge"])
        } throws: { error in
            "\(error)" == "cannot merge: shards ran different generation settings: sampling.seed: 1 → 2 (\(first.path) → \(second.path))"
        }
    }

    /// Shards whose pivots translated through other engines or pair sets: refused naming the setting, never merged into
    /// a run that claims one engine for both.
    @Test(arguments: [#"{"kind": "apertium", "name": "apertium", "pairs": ["es-en"]}"#, #"{"kind": "llm", "name": "llm", "pairs": ["xx"]}"#])
    func shardsOfOtherTranslatorsAreRefusedNamingIt(engine: String) async throws {
        let first = try Fixture.temporaryDirectory(), second = try Fixture.temporaryDirectory()
        _ = try await ResumeCheckTests.job([ResumeCheckTests.items[0]], directory: first, seed: 1, resume: false).run()
        _ = try await ResumeCheckTests.job([ResumeCheckTests.items[1]], directory: second, seed: 1, resume: false).run()
        let file = second.appendingPathComponent(GenerationOutput.jsonFile)
        var root = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        var settings = try #require(root["settings"] as? [String: Any])
        settings["translator"] = try JSONSerialization.jsonObject(with: Data(engine.utf8))
        root["settings"] = settings
        try JSONSerialization.data(withJSONObject: root).write(to: file)
        #expect {
            try RunMerger.merge([first.path, second.path], into: try Fixture.temporaryDirectory().appendingPathComponent("m"), command: ["merge"])
        } throws: { error in
            "\(error)".hasPrefix("cannot merge: shards ran different generation settings: translator.") && "\(error)".contains("(\(first.path) → \(second.path))")
        }
    }

    /// The same shard twice would count every result twice: refused (65) naming both directories.
    @Test func mergingTheSameShardTwiceIsRefused() async throws {
        let shard = try Fixture.temporaryDirectory()
        _ = try await RunFixtures.detect(into: shard)
        let out = try Fixture.temporaryDirectory().appendingPathComponent("merged")
        #expect {
            try RunMerger.merge([shard.path, shard.path], into: out, command: ["merge"])
        } throws: { error in
            "\(error)" == "cannot merge: \(shard.path) and \(shard.path) both hold config main, item ru-000: shards must not overlap (the same shard given twice?)"
        }
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent(DetectionOutput.jsonFile).path))
    }
}
