import Foundation
import LangBench
import LlamaBackend
import Testing
import TestSupport
@testable import LangBenchCLI

/// Machine calibration end to end on a real server: every generate run records one, and `compare`
/// refuses (exit 65, naming the calibrations) latency against a run whose calibration says its machine was
/// twice as slow (the recorded figures edited: a slower machine cannot be produced on demand here).
@Suite(.serialized)
struct CalibrationCommandTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func launch() async throws -> LlamaServer {
        let paths = BackendPaths.resolve(environment: ProcessInfo.processInfo.environment)
        try #require(FileManager.default.isExecutableFile(atPath: paths.server), "llama-server not found at \(paths.server); run scripts/setup-llama")
        try #require(FileManager.default.fileExists(atPath: paths.model), "model not found at \(paths.model); run scripts/setup-model")
        ServerReaper.installSignalHandlers()
        let configuration = ServerConfiguration(binary: paths.server, model: paths.model, contextSize: 2048, threads: 2,
                                                parallelSlots: 1, swaFull: true, startupTimeout: 60)
        return try await LlamaServer.launch(configuration, runDirectory: try Fixture.temporaryDirectory())
    }

    /// `langbench generate` of four English messages, direct, through the server at `url`.
    static func generate(url: URL, into directory: URL) async throws -> CommandResult {
        let corpus = directory.appendingPathComponent("chat.tsv")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try "id\tlang\ttext\ttags\nc1\ten\tI had a long day at work.\t\nc2\ten\tMy cat is sleeping on my desk.\t\nc3\ten\tI finally called my sister.\t\nc4\ten\tIt rained all afternoon.\t\n"
            .write(to: corpus, atomically: true, encoding: .utf8)
        return await runCommand(["generate", "--corpus", corpus.path, "--route", "direct", "--warmup", "0", "--no-replies", "--quiet",
                                 "--server-url", url.absoluteString, "--out", directory.appendingPathComponent("run").path,
                                 "--profile", root.appendingPathComponent(ModelProfile.defaultPath).path,
                                 "--recognizer-model", root.appendingPathComponent("Models/recognizer.lbrm").path,
                                 "--fallback-bank", root.appendingPathComponent(FallbackBank.defaultPath).path,
                                 "--crisis-keywords", root.appendingPathComponent(CrisisCheck.defaultPath).path])
    }

    /// Copies a generation report with its calibration changed by `edit`, or removed when `edit` is nil.
    static func writeRun(_ source: URL, to target: URL, calibration edit: ((inout [String: Any]) -> Void)?) throws {
        var report = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: source)) as? [String: Any])
        var provenance = try #require(report["provenance"] as? [String: Any])
        var calibration = try #require(provenance["calibration"] as? [String: Any], "the run recorded no calibration")
        if let edit {
            edit(&calibration)
            provenance["calibration"] = calibration
        } else {
            provenance["calibration"] = nil
        }
        report["provenance"] = provenance
        try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        try JSONSerialization.data(withJSONObject: report).write(to: target)
    }

    @Test func generateRecordsTheCalibrationAndCompareRefusesASlowerMachine() async throws {
        let normal = try await Self.launch()
        defer { normal.stop() }
        let fast = try Fixture.temporaryDirectory()
        let fastRun = try await Self.generate(url: normal.baseURL, into: fast)
        try #require(fastRun.status == .success, "\(fastRun.stderr)")
        let report = try GenerationOutput.read(fast.appendingPathComponent("run").path)
        let calibration = try #require(report.provenance.calibration)
        #expect(calibration.samples.count == 6)
        #expect(calibration.samples.map(\.phase) == ["start", "start", "start", "end", "end", "end"])
        // Cold prompt every time: the whole prompt is processed, and exactly 16 tokens generated.
        #expect(Set(calibration.samples.map(\.promptTokens)).count == 1 && calibration.samples[0].promptTokens > 30)
        #expect(calibration.samples.allSatisfy { $0.generatedTokens == 16 && $0.promptMs > 0 && $0.generationMs > 0 })
        let markdown = try String(contentsOf: fast.appendingPathComponent("run/generation.md"), encoding: .utf8)
        #expect(markdown.contains("Machine calibration: fixed request"))

        // A slower machine cannot be had on demand (throttling the server by micro-batch gave ×1.2 on a quiet
        // machine and ×3 under load), so the slower run is this run with its recorded calibration times doubled:
        // a fake of the yardstick only; the refusal below is the real compare path.
        let slow = try Fixture.temporaryDirectory()
        try Self.writeRun(fast.appendingPathComponent("run/generation.json"), to: slow.appendingPathComponent("run/generation.json")) { calibration in
            guard var samples = calibration["samples"] as? [[String: Any]] else { return }
            for index in samples.indices {
                for key in ["prompt_ms", "generation_ms"] { samples[index][key] = (samples[index][key] as? Double ?? 0) * 2 }
            }
            calibration["samples"] = samples
        }
        let slowCalibration = try #require(try GenerationOutput.read(slow.appendingPathComponent("run").path).provenance.calibration)
        #expect(slowCalibration.medianMs > calibration.medianMs * MachineAdjustment.margin)

        let refused = await runCommand(["compare", fast.appendingPathComponent("run").path, slow.appendingPathComponent("run").path])
        #expect(refused.status == .dataError)
        #expect(refused.stderr.contains("latency not comparable: the machine calibrations differ by ×"), "\(refused.stderr)")
        #expect(refused.stderr.contains("base: fixed request") && refused.stderr.contains("current: fixed request"))

        // The same pair without latency, and a run against itself on the calibrated basis, are compared.
        let skipped = await runCommand(["compare", fast.appendingPathComponent("run").path, slow.appendingPathComponent("run").path,
                                        "--latency", "skip"])
        #expect(skipped.status != .dataError, "\(skipped.stderr)")
        #expect(skipped.stdout.contains("latency not checked (--latency skip)"))
        #expect(!skipped.stdout.contains("| generation.latency"))
        let itself = await runCommand(["compare", fast.appendingPathComponent("run").path, fast.appendingPathComponent("run").path])
        #expect(itself.status == .success, "\(itself.stderr)")
        #expect(itself.stdout.contains("latency calibrated: ratios divided by the machine calibration CURRENT/BASE ×1.00"))
    }

    @Test func aBaselineWithoutCalibrationIsRefusedForLatency() async throws {
        let normal = try await Self.launch()
        defer { normal.stop() }
        let directory = try Fixture.temporaryDirectory()
        let run = try await Self.generate(url: normal.baseURL, into: directory)
        try #require(run.status == .success, "\(run.stderr)")
        // A run recorded before calibration existed: the same report with its calibration taken out.
        let current = directory.appendingPathComponent("run/generation.json")
        let baseline = directory.appendingPathComponent("uncalibrated/generation.json")
        try Self.writeRun(current, to: baseline, calibration: nil)
        let refused = await runCommand(["compare", baseline.path, current.path])
        #expect(refused.status == .dataError)
        #expect(refused.stderr.contains("latency not comparable: the base run has no machine calibration"), "\(refused.stderr)")
    }
}
