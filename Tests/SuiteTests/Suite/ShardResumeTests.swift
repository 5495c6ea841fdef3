@testable import Support
@testable import Detection
import Foundation
@testable import Generation
@testable import Corpus
@testable import Suite
@testable import Comparison
import TestSupport
import Testing

struct ShardResumeTests {
    @Test func shardsPartitionTheItems() throws {
        let shards = try (1...3).map { try Shard("\($0)/3") }
        let ids = RunFixtures.corpus.items.map(\.id)
        for id in ids { #expect(shards.filter { $0.contains(id) }.count == 1) }
        #expect(shards.allSatisfy { shard in ids.contains { shard.contains($0) } })
        #expect(throws: ConfigurationError.self) { try Shard("4/3") }
        #expect(throws: ConfigurationError.self) { try Shard("1-3") }
    }

    @Test func shardedThenMergedEqualsUnsharded() async throws {
        let whole = try await RunFixtures.detect()
        let directories = try await RunFixtures.shards(3)
        let output = try Fixture.temporaryDirectory()
        let (merged, _) = try RunMerger.merge(directories, into: output, command: ["merge"])
        #expect(try RunResults.load(output.path).detectionResults == whole.detectionResults)
        #expect(merged?.slices == whole.detection?.slices)
        #expect(merged?.comparisons == whole.detection?.comparisons)
        let file = { (directory: String) in try String(contentsOfFile: URL(fileURLWithPath: directory).appendingPathComponent(DetectionOutput.itemsFile).path, encoding: .utf8) }
        #expect(try file(output.path) == file(whole.path))
    }
}
