import Foundation
import Testing
import TestSupport
@testable import LangBench

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
        var directories: [String] = []
        for k in 1...3 {
            let directory = try Fixture.temporaryDirectory()
            _ = try await RunFixtures.detect(try Shard("\(k)/3").apply(RunFixtures.corpus), into: directory)
            directories.append(directory.path)
        }
        let output = try Fixture.temporaryDirectory()
        let (merged, _) = try RunMerger.merge(directories, into: output, command: ["merge"])
        #expect(merged?.results == whole.results)
        #expect(merged?.slices == whole.slices)
        #expect(merged?.comparisons == whole.comparisons)
        let wholeCSV = CSVWriter.render(whole.itemsTable)
        #expect(try String(contentsOf: output.appendingPathComponent(DetectionOutput.itemsFile), encoding: .utf8) == wholeCSV)
    }

    /// A real `langbench detect` process killed with SIGKILL mid-run, then resumed.
    @Test func resumeAfterKillLosesAndRedoesNothing() async throws {
        let binary = PipelineFixture.repository.appendingPathComponent(".build/debug/langbench").path
        try #require(FileManager.default.isExecutableFile(atPath: binary), "build langbench first (swift build)")
        let directory = try Fixture.temporaryDirectory()
        let corpusFile = directory.appendingPathComponent("corpus.tsv")
        try ("id\tlang\ttext\ttags\n" + RunFixtures.corpus.items.prefix(30).map { "\($0.id)\t\($0.lang)\t\($0.text)\t" }.joined(separator: "\n") + "\n")
            .write(to: corpusFile, atomically: true, encoding: .utf8)
        let out = directory.appendingPathComponent("run").path
        let arguments = ["detect", "--corpus", corpusFile.path, "--detector", RunFixtures.detector, "--candidates", "uk,ru", "--out", out, "--quiet",
                         "--profile", PipelineFixture.repository.appendingPathComponent(ModelProfile.defaultPath).path]
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(["SCRIPT_DETECTOR_DELAY": "0.05"]) { $1 }
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let log = URL(fileURLWithPath: out).appendingPathComponent(DetectionOutput.resultsLog)
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            let lines = (try? String(contentsOf: log, encoding: .utf8))?.split(separator: "\n").count ?? 0
            if lines >= 8 { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        let before = try JSONLinesLog<DetectionResult>.read(log, repair: false)
        #expect(before.count >= 8 && before.count < 30, "killed after \(before.count) results")
        #expect(!FileManager.default.fileExists(atPath: URL(fileURLWithPath: out).appendingPathComponent(DetectionOutput.jsonFile).path))

        let resume = Process()
        resume.executableURL = URL(fileURLWithPath: binary)
        resume.arguments = arguments + ["--resume"]
        resume.standardOutput = FileHandle.nullDevice
        try resume.run()
        resume.waitUntilExit()
        #expect(resume.terminationStatus == 0)
        let report = try DetectionOutput.read(out)
        #expect(report.results.count == 30)
        #expect(report.timings.first?.items == 30 - before.count)  // only the missing items were detected
        let logged = try JSONLinesLog<DetectionResult>.read(log)
        #expect(logged.count == 30)
        #expect(Set(logged.map(\.itemID)).count == 30)
    }
}
