@testable import Support
@testable import Detection
import Foundation
@testable import Generation
import GenerationTestSupport
@testable import Corpus
@testable import Suite
import Backend
@testable import Provenance
import ByteIO
import TestSupport
import Testing

/// `langbench run`'s work, done by the library: a suite config with both halves, the built-in
/// recognizer and the real llama-server and model.
@Suite(.serialized)
struct SuiteRunnerTests {
    /// Two chat messages (one the model supports, one it does not) and the tiny detection corpus.
    static func config(in directory: URL, route: String = "both", packs: String? = nil) throws -> BenchConfig {
        let chat = directory.appendingPathComponent("chat.tsv")
        try "id\tlang\ttext\ttags\ns-en\ten\tI finally finished my exam today!\t\ns-ru\tru\tПривет! Как прошёл твой день?\t\n"
            .write(to: chat, atomically: true, encoding: .utf8)
        let profile = PipelineFixture.repository.appendingPathComponent(ModelProfile.defaultResource).path
        let json = """
        {"schema_version": 1,
         "detection": {"corpora": ["\(Fixture.path("corpus/tiny.tsv", target: "CorpusTests"))"]},
         "generation": {"corpora": ["\(chat.path)"], "profile": "\(profile)", "route": "\(route)", "warmup": 0, "seed": 7\(packs.map { ", \"packs\": \($0)" } ?? "")}}
        """
        let file = directory.appendingPathComponent("bench.json")
        try json.write(to: file, atomically: true, encoding: .utf8)
        return try BenchConfig.load(file.path)
    }

    @Test(.needs(.server)) func bothHalvesWriteOneRunDirectory() async throws {
        let directory = try Fixture.temporaryDirectory()
        let server = try await TestServers.shared.server()
        let out = directory.appendingPathComponent("run")
        let runner = SuiteRunner(config: try Self.config(in: directory), server: ServerSource(url: server.baseURL), directory: out,
                                 environment: [:], command: ["langbench", "run"])
        let report = try await runner.run()

        #expect(report.runID == "run")
        #expect(Set(report.detection.keys).isSuperset(of: ["unconstrained.accuracy", "constrained.accuracy", "constrained+priors.accuracy"]))
        #expect(Set(report.generation.keys).isSuperset(of: ["direct.fallback_rate", "pivot.fallback_rate"]))
        for file in [DetectionOutput.markdownFile, DetectionOutput.resultsLog, GenerationOutput.markdownFile, GenerationOutput.recordsLog,
                     SuiteReport.markdownFile, SuiteReport.jsonFile, RunPage.file] {
            #expect(report.files.contains(file), "\(file) listed")
            #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent(file).path), "\(file) written")
        }
        #expect(report.files == report.files.sorted() && Set(report.files).count == report.files.count)
        let records = try JSONLinesLog<GenerationRecord>.read(out.appendingPathComponent(GenerationOutput.recordsLog))
        #expect(records.count == 4 * 3, "2 items × 2 routes, detected with each of the three default generation configs")
        #expect(records.filter { $0.config == nil }.count == 4)
        #expect(Set(records.map(\.route)) == [.direct, .pivot])
        let detection = try DetectionStore.readRun(out.path).results
        #expect(detection.count == 3 * 5, "three default configs × five items")
        #expect(detection.allSatisfy { $0.detector == "builtin" })
        let generation = try GenerationOutput.read(out.path)
        #expect(generation.settings.detection.hasPrefix("constrained+priors (builtin;"))
        #expect(generation.settings.sampling.seed == 7)
        let page = try String(contentsOf: out.appendingPathComponent(RunPage.file), encoding: .utf8)
        #expect(page.contains("<section id=\"detection\"") && page.contains("<section id=\"served\">"), "report.html covers both halves")
    }

    /// `run --jobs N` detects as `detect --jobs N` does: the same job, reading the corpus in id order,
    /// and the same results for any N.
    @Test func theDetectionHalfIsDetectsForAnyJobs() async throws {
        let directory = try Fixture.temporaryDirectory()
        let file = directory.appendingPathComponent("bench.json")
        try "{\"schema_version\": 1, \"detection\": {\"corpora\": [\"\(Fixture.path("corpus/tiny.tsv", target: "CorpusTests"))\"]}}"
            .write(to: file, atomically: true, encoding: .utf8)
        var outputs: [URL] = []
        for jobs in [1, 2] {
            let out = directory.appendingPathComponent("run-\(jobs)")
            _ = try await SuiteRunner(config: try BenchConfig.load(file.path), directory: out, environment: [:], command: ["langbench", "run"],
                                      jobs: jobs).run()
            outputs.append(out)
        }
        let detect = directory.appendingPathComponent("detect")
        let profile = try ModelProfile.load(PipelineFixture.repository.appendingPathComponent(ModelProfile.defaultResource).path)
        _ = try await DetectionJob(items: .reading([Fixture.path("corpus/tiny.tsv", target: "CorpusTests")], CorpusLoader()), configs: DetectionConfig.defaults(detector: "builtin"),
                                   supported: profile.supportedLanguages, factory: DetectorFactory(), directory: detect,
                                   command: ["langbench", "run"], jobs: 2).run()  // provenance echoes the command
        for out in outputs {
            for name in [DetectionOutput.resultsLog, DetectionOutput.itemsFile, DetectionOutput.summaryFile] {
                #expect(try Data(contentsOf: out.appendingPathComponent(name)) == Data(contentsOf: detect.appendingPathComponent(name)), "\(name)")
            }
            let json = { (url: URL) in try String(contentsOf: url.appendingPathComponent(DetectionOutput.jsonFile), encoding: .utf8) }
            #expect(try DetectionJobTests.stable(json(out)) == DetectionJobTests.stable(json(detect)))
        }
    }

    @Test(.needs(.server)) func aShardRunsOnlyItsItems() async throws {
        let directory = try Fixture.temporaryDirectory()
        let server = try await TestServers.shared.server()
        let shard = try Shard("1/2")
        let runner = SuiteRunner(config: try Self.config(in: directory, route: "auto"), shard: shard, server: ServerSource(url: server.baseURL),
                                 directory: directory.appendingPathComponent("s1"), environment: [:], command: ["langbench", "run"])
        let report = try await runner.run()
        #expect(report.shard == "1/2")
        let detection = try DetectionStore.readRun(directory.appendingPathComponent("s1").path)
        let tiny = try CorpusLoader().load([Fixture.path("corpus/tiny.tsv", target: "CorpusTests")])
        let expected = Set(tiny.items.map(\.id).filter(shard.contains))
        #expect(Set(detection.results.map(\.itemID)) == expected)
        // The generation half records its shard, so merged parts become the blocks `compare` resamples.
        #expect(try GenerationOutput.read(directory.appendingPathComponent("s1").path).provenance.shard == "1/2")
    }

    /// Merged timings add up items, seconds and the recognizer's CPU seconds per config; CPU seconds stay
    /// unknown when one shard has none (a run written before they were recorded reads without them).
    @Test func mergedTimingsAddCPUSecondsOnlyWhenEveryShardHasThem() throws {
        let old = try JSONDecoder().decode(DetectionRunner.Timing.self, from: Data(#"{"config":"c","detector":"builtin","items":2,"seconds":1,"items_per_second":2,"load_ms":5}"#.utf8))
        #expect(old.cpuSeconds == nil)
        let new = DetectionRunner.Timing(config: "c", detector: "builtin", items: 6, seconds: 2, itemsPerSecond: 3, loadMs: 7, cpuSeconds: 1.5)
        #expect(String(decoding: try JSONEncoder().encode(new), as: UTF8.self).contains(#""cpu_seconds":1.5"#))
        let both = RunMerger.mergedTimings([new, new])
        #expect(both.count == 1 && both[0].items == 12 && both[0].seconds == 4 && both[0].cpuSeconds == 3 && both[0].loadMs == 7)
        #expect(RunMerger.mergedTimings([new, old])[0].cpuSeconds == nil)
        #expect(RunMerger.mergedTimings([old, new])[0].cpuSeconds == nil)
    }

    @Test func mergedShardsAreBlocksOnlyWhenEveryPartIsAShard() {
        func part(_ shard: String?) -> Provenance {
            var provenance = GenerationFixtures.provenance("part")
            provenance.shard = shard
            return provenance
        }
        let merged = RunMerger.mergedProvenance([part("2/3"), part("1/3"), part("3/3")], command: ["merge"])
        #expect(merged.blocks == ["2/3", "1/3", "3/3"] && merged.shard == nil)
        #expect(RunMerger.mergedProvenance([part("1/2"), part(nil)], command: ["merge"]).blocks == nil)
        #expect(RunMerger.mergedProvenance([part("1/1")], command: ["merge"]).blocks == nil)
    }
}
