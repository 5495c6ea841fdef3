import Checks
@testable import Detection
import Foundation
@testable import Generation
@testable import Suite
@testable import Comparison
@testable import Provenance
import Testing

/// What the runs computed with is compared: a server change that moves speed is named and never absorbed into the
/// machine factor; another machine is the calibration's business and no same-runner compare's.
struct EnvironmentTests {
    static let ubatch = "--ctx-size 2048 --threads 2 --threads-batch 2 --parallel 1 --no-webui --swa-full"

    /// The fixture run on a calibrated machine, with `server` facts and `host` replacing the fixture's.
    static func run(_ name: String, server: [String: String] = [:], features: [String]? = ["avx2", "fma"]) throws -> RunResults {
        var results = try CalibrationConsistencyTests.run(name, calibration: ComponentCalibrationTests.calibration())
        results.generation!.settings.server.merge(server) { _, new in new }
        results.generation!.provenance.host.cpuFeatures = features
        return results
    }

    @Test func aChangedServerSettingIsRefusedNamingItAndItsEffect() throws {
        let base = try Self.run("base", server: ["server_args": Self.ubatch])
        let current = try Self.run("current", server: ["server_args": Self.ubatch + " --ubatch-size 8"])
        for basis in [LatencyBasis.calibrated, .sameRunner] {
            #expect {
                try Comparison(base: base, current: current, thresholds: .default, latency: basis)
            } throws: { error in
                "\(error)".contains("server settings differs: \(Self.ubatch) vs \(Self.ubatch) --ubatch-size 8 (changes the server's speed")
            }
        }
        // Latency skipped: the change cannot move a verdict, and it is still shown.
        let skipped = try Comparison(base: base, current: current, thresholds: .default, latency: .skip)
        #expect(skipped.environment.map(\.name) == ["server settings"] && skipped.markdown.contains("| server settings | \(Self.ubatch) |"))
    }

    /// Let through, a calibrated compare does not judge latency across the change (the calibration ran through each
    /// run's own server and would call the change machine speed); same-runner it is the A/B of the change.
    @Test func aServerChangeLetThroughIsNeverAbsorbedByTheCalibration() throws {
        let base = try Self.run("base", server: ["build_info": "b11434-aaaa", "system_info": "SSE3 AVX AVX2 AVX512"])
        let current = try Self.run("current", server: ["build_info": "b11434-aaaa", "system_info": "SSE3 AVX AVX2"])
        let calibrated = try Comparison(base: base, current: current, thresholds: .default, allowMismatch: true, latency: .calibrated)
        let notJudged = try #require(calibrated.latencyNotJudged)
        #expect(notJudged.note.contains("llama.cpp CPU features in use: SSE3 AVX AVX2 AVX512 → SSE3 AVX AVX2"))
        #expect(!calibrated.checks.contains { $0.metric == "generation.latency" })
        #expect(calibrated.mismatches.contains { $0.hasPrefix("llama.cpp CPU features in use differs") })
        let sameRunner = try Comparison(base: base, current: current, thresholds: .default, allowMismatch: true, latency: .sameRunner)
        #expect(sameRunner.latencyNotJudged == nil && sameRunner.checks.contains { $0.metric == "generation.latency" })
    }

    @Test func anotherMachineIsTheCalibrationsBusinessNotSameRunners() throws {
        let base = try Self.run("base", features: ["avx2", "avx512f", "fma"]), current = try Self.run("current", features: ["avx2", "fma"])
        let calibrated = try Comparison(base: base, current: current, thresholds: .default, latency: .calibrated)
        #expect(calibrated.environment == [EnvironmentDifference(name: "CPU features", base: "avx2 avx512f fma", current: "avx2 fma", effect: .machine)])
        #expect(calibrated.json.contains("\"environment\"") && calibrated.html.contains("id=\"environment\""))
        #expect(throws: ComparisonError.self) { try Comparison(base: base, current: current, thresholds: .default, latency: .sameRunner) }
    }

    /// A report from before the environment was recorded refuses nothing: there is no change to name, only a gap.
    @Test func aFigureOneRunDidNotRecordIsShownNotRefused() throws {
        let base = try Self.run("base", features: nil), current = try Self.run("current", server: ["server_args": Self.ubatch])
        let comparison = try Comparison(base: base, current: current, thresholds: .default, latency: .sameRunner)
        #expect(comparison.mismatches.isEmpty && comparison.environment.allSatisfy { $0.base == "not recorded" })
    }

    /// Served was judged by another recognizer: refused, naming both judges.
    @Test func anotherJudgeIsRefusedNamingBoth() throws {
        var base = try Self.run("base"), current = try Self.run("current")
        base.generation!.settings.judge = "builtin recognizer aaaa"
        current.generation!.settings.judge = "builtin recognizer bbbb"
        #expect {
            try Comparison(base: base, current: current, thresholds: .default, latency: .skip)
        } throws: { error in
            "\(error)".contains("reply-language judge differs: builtin recognizer aaaa vs builtin recognizer bbbb")
        }
    }

    /// A `/v1/completions` run against a `/v1/chat/completions` one sends its prompts in another shape: refused, naming the API.
    @Test func anotherBackendAPIIsRefusedNamingIt() throws {
        let base = try Self.run("base", server: ["api": "openai-completions"]), current = try Self.run("current", server: ["api": "openai-chat"])
        #expect {
            try Comparison(base: base, current: current, thresholds: .default, latency: .skip)
        } throws: { error in
            "\(error)".contains("backend API differs: openai-completions vs openai-chat (prompts went out through another API")
        }
        let native = try Self.run("native")
        #expect(throws: ComparisonError.self) { try Comparison(base: native, current: current, thresholds: .default, latency: .skip) }
    }

    /// Same-runner, a server setting let through moves the calibration (it runs through the server): that is the setting's
    /// effect, named, and latency is compared raw — not refused as "another machine".
    @Test func aSettingThatMovedTheCalibrationIsNamedNotRefusedSameRunner() throws {
        var base = try Self.run("base", server: ["server_args": Self.ubatch])
        var current = try Self.run("current", server: ["server_args": Self.ubatch + " --ubatch-size 8"])
        base.generation!.provenance.calibration = ComponentCalibrationTests.calibration()
        current.generation!.provenance.calibration = ComponentCalibrationTests.calibration(prompt: 1.6, generation: 1.2)
        let comparison = try Comparison(base: base, current: current, thresholds: .default, allowMismatch: true, latency: .sameRunner)
        #expect(comparison.notes.contains { $0.contains("moved by the server's own change (server settings: \(Self.ubatch) → \(Self.ubatch) --ubatch-size 8)") },
                "\(comparison.notes)")
        #expect(comparison.checks.contains { $0.metric == "generation.latency" })
    }
}
