import Foundation
@testable import Generation
import Suite
@testable import LangBenchCLI
import Backend
import Support
@testable import Provenance
@testable import Comparison
import TestSupport
import Testing

/// Machine calibration end to end on a real server: every generate run records one, and `compare`
/// refuses (exit 65, naming the calibrations) latency against a run whose calibration says its machine was
/// twice as slow (the recorded figures edited: a slower machine cannot be produced on demand here), or whose
/// calibration disagrees with itself (load injected into its start samples).
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
    static func generate(url: URL, into directory: URL, environment: [String: String] = ProcessInfo.processInfo.environment) async throws -> CommandResult {
        let corpus = directory.appendingPathComponent("chat.tsv")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try "id\tlang\ttext\ttags\nc1\ten\tI had a long day at work.\t\nc2\ten\tMy cat is sleeping on my desk.\t\nc3\ten\tI finally called my sister.\t\nc4\ten\tIt rained all afternoon.\t\n"
            .write(to: corpus, atomically: true, encoding: .utf8)
        return await runCommand(["generate", "--corpus", corpus.path, "--route", "direct", "--warmup", "0", "--no-replies", "--quiet",
                                 "--server-url", url.absoluteString, "--out", directory.appendingPathComponent("run").path,
                                 "--profile", root.appendingPathComponent(ModelProfile.defaultResource).path,
                                 "--recognizer-model", root.appendingPathComponent("Models/recognizer.lbrm").path,
                                 "--fallback-bank", root.appendingPathComponent(FallbackBank.defaultResource).path,
                                 "--crisis-keywords", root.appendingPathComponent(CrisisCheck.defaultResource).path], environment: environment)
    }

    /// Copies a generation report and its records log, the calibration changed by `edit`, or removed when `edit` is nil.
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
        let log = GenerationOutput.recordsLog
        try FileManager.default.copyItem(at: source.deletingLastPathComponent().appendingPathComponent(log),
                                         to: target.deletingLastPathComponent().appendingPathComponent(log))
    }

    /// Every sample's times set to those of the first end sample: a calibration that agrees with itself
    /// whatever load the test machine had while the run measured it.
    static func steady(_ calibration: inout [String: Any]) {
        guard var samples = calibration["samples"] as? [[String: Any]], let end = samples.first(where: { $0["phase"] as? String == "end" }) else { return }
        for index in samples.indices {
            for key in ["prompt_ms", "generation_ms"] { samples[index][key] = end[key] }
        }
        calibration["samples"] = samples
    }

    @Test(.needs(.server)) func generateRecordsTheCalibrationAndCompareRefusesASlowerMachine() async throws {
        let normal = try await Self.launch()
        defer { normal.stop() }
        let fast = try Fixture.temporaryDirectory()
        let fastRun = try await Self.generate(url: normal.baseURL, into: fast)
        try #require(fastRun.status == .success, "\(fastRun.stderr)")
        let report = try GenerationOutput.read(fast.appendingPathComponent("run").path)
        let calibration = try #require(report.provenance.calibration)
        #expect(calibration.samples.count == 6)
        #expect(calibration.samples.map(\.phase) == ["start", "start", "start", "end", "end", "end"])
        // Cold prompt every time: the whole item-like prompt is processed, exactly 20 tokens generated, and the client's
        // clock holds the server's work.
        #expect(Set(calibration.samples.map(\.promptTokens)).count == 1 && calibration.samples[0].promptTokens > 90)
        #expect(calibration.samples.allSatisfy { $0.generatedTokens == 20 && $0.promptMs > 0 && $0.generationMs > 0 })
        #expect(calibration.samples.allSatisfy { ($0.clientMs ?? 0) >= $0.promptMs + $0.generationMs })
        let markdown = try String(contentsOf: fast.appendingPathComponent("run/generation.md"), encoding: .utf8)
        #expect(markdown.contains("Machine calibration: fixed request"))

        // A slower machine cannot be had on demand (throttling the server by micro-batch gave ×1.2 on a quiet
        // machine and ×3 under load), so the slower run is this run with its recorded calibration times doubled:
        // a fake of the yardstick only; the refusal below is the real compare path. Both start from a steady copy
        // of the calibration, so load on the test machine during the run cannot make it inconsistent (refused too).
        let steady = try Fixture.temporaryDirectory()
        try Self.writeRun(fast.appendingPathComponent("run/generation.json"), to: steady.appendingPathComponent("run/generation.json"), calibration: Self.steady)
        let slow = try Fixture.temporaryDirectory()
        try Self.writeRun(fast.appendingPathComponent("run/generation.json"), to: slow.appendingPathComponent("run/generation.json")) { calibration in
            Self.steady(&calibration)
            guard var samples = calibration["samples"] as? [[String: Any]] else { return }
            for index in samples.indices {
                for key in ["prompt_ms", "generation_ms"] { samples[index][key] = (samples[index][key] as? Double ?? 0) * 2 }
            }
            calibration["samples"] = samples
        }
        let steadyCalibration = try #require(try GenerationOutput.read(steady.appendingPathComponent("run").path).provenance.calibration)
        let slowCalibration = try #require(try GenerationOutput.read(slow.appendingPathComponent("run").path).provenance.calibration)
        #expect(slowCalibration.medianMs > steadyCalibration.medianMs * MachineAdjustment.margin)

        let refused = await runCommand(["compare", steady.appendingPathComponent("run").path, slow.appendingPathComponent("run").path])
        // The calibrations are steady copies, but the run's own requests may still have met a loaded machine (more
        // than 5% of them generating below a quarter of the median speed): then latency is not judged at all, and
        // that is what the compare must say instead of comparing calibrations.
        let steadiness = MachineSteadiness(try GenerationOutput.read(steady.appendingPathComponent("run").path))
        LatencySubject.met(judged: steadiness.isSteady, test: #function, reason: steadiness.reasons.joined(separator: "; "))
        guard steadiness.isSteady else {
            for compare in [refused, await runCommand(["compare", steady.appendingPathComponent("run").path, steady.appendingPathComponent("run").path])] {
                #expect(compare.status == .dataError, "\(compare.stderr)")
                #expect(compare.stdout.contains("latency NOT JUDGED") && !compare.stdout.contains("| generation.latency"), "\(compare.stdout)")
            }
            return
        }
        #expect(refused.status == .dataError)
        #expect(refused.stderr.contains("latency not comparable: the machine calibrations differ by ×"), "\(refused.stderr)")
        #expect(refused.stderr.contains("base: fixed request") && refused.stderr.contains("current: fixed request"))

        // The same pair without latency, and a run against itself on the calibrated basis, are compared.
        let skipped = await runCommand(["compare", steady.appendingPathComponent("run").path, slow.appendingPathComponent("run").path,
                                        "--latency", "skip"])
        #expect(skipped.status != .dataError, "\(skipped.stderr)")
        #expect(skipped.stdout.contains("latency not checked (--latency skip)"))
        #expect(!skipped.stdout.contains("| generation.latency"))
        let itself = await runCommand(["compare", steady.appendingPathComponent("run").path, steady.appendingPathComponent("run").path])
        #expect(itself.status == .success, "\(itself.stderr)")
        #expect(itself.stdout.contains("latency calibrated per component: CURRENT/BASE fixed request ×1.00"))
    }

    /// A real 2× slowdown (`LANGBENCH_TEST_SLOWDOWN`) in a run whose machine was loaded while its start
    /// calibration was measured once passed the calibrated compare: the run now calls itself unsteady and
    /// `compare` leaves its latency unjudged, saying so at the top, while the other checks still gate. Eight busy processes slowed the
    /// start samples 28–42×; that load cannot be made on demand at a known size in a test, so it is injected
    /// into the start samples as recorded (`LANGBENCH_TEST_CALIBRATION_LOAD`); the run, the server, the slowdown
    /// and the compare are real.
    @Test(.needs(.server)) func aSlowdownWhoseStartCalibrationWasLoadedIsFlaggedUnsteadyAndItsLatencyNotJudged() async throws {
        let normal = try await Self.launch()
        defer { normal.stop() }
        let quiet = try Fixture.temporaryDirectory()
        let quietRun = try await Self.generate(url: normal.baseURL, into: quiet)
        try #require(quietRun.status == .success, "\(quietRun.stderr)")
        var environment = ProcessInfo.processInfo.environment
        environment[InjectedSlowdown.environmentKey] = "2"
        environment[InjectedCalibrationLoad.environmentKey] = "30"
        let loaded = try Fixture.temporaryDirectory()
        let loadedRun = try await Self.generate(url: normal.baseURL, into: loaded, environment: environment)
        try #require(loadedRun.status == .success, "\(loadedRun.stderr)")

        let report = try GenerationOutput.read(loaded.appendingPathComponent("run").path)
        #expect(report.settings.server[InjectedCalibrationLoad.environmentKey] == "30.0")
        let check = try #require(report.calibrationConsistency)
        #expect(check.verdict == .inconsistent && (check.spreadRatio ?? 0) > CalibrationConsistency.maxSpreadRatio)
        #expect(try #require(check.startMedianMs) > 10 * (try #require(check.endMedianMs)))
        let markdown = try String(contentsOf: loaded.appendingPathComponent("run/generation.md"), encoding: .utf8)
        #expect(markdown.hasPrefix("# Reply generation: direct vs pivot\n\n**⚠️ Machine unsteady during this run: the machine calibration's samples span ×"),
                "\(markdown)")
        let json = try String(contentsOf: loaded.appendingPathComponent("run/generation.json"), encoding: .utf8)
        #expect(json.contains(#""calibration_consistency""#) && json.contains(#""verdict" : "inconsistent""#))
        #expect(json.contains(#""machine_steady" : false"#))
        #expect(loadedRun.stderr.contains("warning: Machine unsteady during this run: the machine calibration's samples span ×"), "\(loadedRun.stderr)")

        for basis in ["calibrated", "same-runner"] {
            let compared = await runCommand(["compare", quiet.appendingPathComponent("run").path, loaded.appendingPathComponent("run").path, "--latency", basis])
            // Never a pass: nothing else regressed (the slowdown moves no token), so the latency it could not judge exits 65.
            #expect(compared.status == .dataError, "\(compared.stderr)")
            #expect(compared.stderr.contains("but latency was not judged"), "\(compared.stderr)")
            // Calibrated: the quiet run may itself be unsteady on a loaded test machine, and the note then names both runs.
            // Same-runner, drift is context; what leaves latency unjudged is that the two runs' calibrations are far apart.
            if basis == "calibrated" {
                #expect(compared.stdout.contains("**⚠️ latency NOT JUDGED (neither passed nor failed): the machine was unsteady during the ")
                        && compared.stdout.contains("the current run: the machine calibration's samples span ×"), "\(compared.stdout)")
            } else {
                #expect(compared.stdout.contains("**⚠️ latency NOT JUDGED (neither passed nor failed): the two runs' machine calibrations differ by ×"),
                        "\(compared.stdout)")
            }
            #expect(!compared.stdout.contains("| generation.latency") && compared.stdout.contains("generation.tokens_generated"))
        }
    }

    @Test(.needs(.server)) func aBaselineWithoutCalibrationIsRefusedForLatency() async throws {
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
