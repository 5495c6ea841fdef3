@testable import BenchSupport
@testable import Detection
import Foundation
@testable import Generation
@testable import LangBench
@testable import RunComparison
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
        (#"{"accuracy_points": -0.5}"#, "t.json (accuracy_points): must be a non-negative number, not -0.5"),
        (#"{"fallback_points": -2}"#, "t.json (fallback_points): must be a non-negative number, not -2.0"),
        (#"{"latency_ratio": -0.1}"#, "t.json (latency_ratio): must be a non-negative number, not -0.1"),
        (#"{"calibration_margin": 0.8}"#, "t.json (calibration_margin): must be a factor of at least 1 (1.25 allows machines ×1.25 apart), not 0.8"),
        (#"{"language_min_items": 0}"#, "t.json (language_min_items): must be at least 1, not 0"),
        (#"{"schema_version": 7}"#, "t.json: schema_version 7 is not supported (this LangBench reads 1)"),
    ])
    func thresholdsOutOfRangeAreRefusedWithTheKey(json: String, message: String) {
        #expect {
            try StrictJSON.decode(Thresholds.self, from: Data(json.utf8), path: "t.json")
        } throws: { error in
            (error as? ConfigurationError)?.description == message
        }
    }

    @Test func validThresholdsStillLoad() throws {
        let thresholds = try StrictJSON.decode(Thresholds.self, from: Data(#"{"schema_version": 1, "alpha": 0.01, "fallback_points": 0}"#.utf8), path: "t.json")
        #expect(thresholds.alpha == 0.01 && thresholds.fallbackPoints == 0)
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
