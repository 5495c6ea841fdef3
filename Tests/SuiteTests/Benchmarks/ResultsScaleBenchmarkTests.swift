import Checks
@testable import Detection
import Foundation
@testable import Generation
@testable import Suite
@testable import Comparison
import TestSupport
import Testing

struct ResultsScaleBenchmarkTests {
    /// The generated runs read back as runs: base and current differ by the flips, and the two shards
    /// merge into the base run's results log byte for byte.
    @Test func generatedRunsCompareAndMergeAsRealOnes() throws {
        let directory = try Fixture.temporaryDirectory()
        let runs: [(String, ResultsScaleBenchmark.Run)] = [("base", .base), ("current", .current), ("s1", .shard(index: 0, count: 2)), ("s2", .shard(index: 1, count: 2))]
        for (name, run) in runs { _ = try ResultsScaleBenchmark.write(run, items: 2_000, configs: 2, seed: 7, to: directory.appendingPathComponent(name)) }
        let path = { directory.appendingPathComponent($0).path }
        let base = try RunResults.load(path("base")), current = try RunResults.load(path("current"))
        let join = try DetectionJoin(base: base.detectionStore!, current: current.detectionStore!)
        #expect(join.configs.map(\.name) == ["c0", "c1"])
        for (_, counts) in join.configs {
            #expect(counts.all.n == 2_000 && counts.all.fixed > 0 && counts.all.broken > 0 && counts.all.fixed + counts.all.broken < 100)
        }
        let reference = try StreamingComparisonTests.inMemoryChecks(base: base, current: current, thresholds: .default)
        #expect(DetectionComparer.checks(join, thresholds: .default) == reference)
        let merged = directory.appendingPathComponent("merged")
        _ = try RunMerger.merge([path("s1"), path("s2")], into: merged, command: ["merge"])
        for file in [DetectionOutput.resultsLog, DetectionOutput.itemsFile] {
            #expect(try Data(contentsOf: merged.appendingPathComponent(file)) == Data(contentsOf: directory.appendingPathComponent("base").appendingPathComponent(file)), "\(file)")
        }
    }
}
