import Checks
@testable import Detection
import Foundation
@testable import Generation
import GenerationTestSupport
@testable import Suite
@testable import Comparison
@testable import Provenance
import TestSupport
import Testing

/// `compare --latency calibrated` of a run whose pool servers' calibrations differ beyond the margin in one
/// component: latency is not judged (no one machine to scale it by), every other check still runs.
struct PoolComparisonTests {
    /// Three samples per phase: `promptMs` of prompt processing and 350 ms of generation each.
    static func calibration(promptMs: Double) -> MachineCalibration {
        MachineCalibration(threads: nil, samples: ["start", "start", "start", "end", "end", "end"].map {
            MachineCalibration.Sample(phase: $0, promptTokens: 58, promptMs: promptMs, generatedTokens: 16, generationMs: 350)
        })
    }

    /// The base fixture's records dealt over two servers whose calibrations spend `first` and `second` ms on the prompt.
    static func pooled(first: Double, second: Double) throws -> GenerationReport {
        let records = try GenerationFixtures.records("base")
        let items = Array(Set(records.map(\.itemID))).sorted()
        let labelled = records.map { record -> GenerationRecord in
            var record = record
            record.server = PoolMember.label(items.firstIndex(of: record.itemID)! % 2)
            return record
        }
        var provenance = GenerationFixtures.provenance("pooled")
        provenance.servers = [PoolServer(label: "server-1", url: "http://10.0.0.5:8080", calibration: calibration(promptMs: first)),
                              PoolServer(label: "server-2", url: "http://10.0.0.6:8080", calibration: calibration(promptMs: second))]
        provenance.calibration = MachineCalibration.merged(provenance.servers!.compactMap(\.calibration))
        return GenerationReport(records: labelled, settings: GenerationFixtures.settings, warmupRuns: 4, provenance: provenance)
    }

    static func base() throws -> RunResults {
        try CalibrationConsistencyTests.run("one-server", calibration: calibration(promptMs: 350))
    }

    static func run(_ report: GenerationReport) -> RunResults { RunResults(path: "pooled", detection: nil, generation: report) }

    @Test func unlikeServersInOneComponentLeaveLatencyUnjudged() throws {
        // The whole request differs ×1.20, within the margin; prompt processing ×1.40, beyond it.
        let current = try Self.pooled(first: 350, second: 490)
        let pool = try #require(current.pool)
        let disagreement = try #require(pool.disagreement)
        #expect(!pool.pooled && disagreement.servers == ["server-1", "server-2"] && disagreement.component == "prompt processing")
        #expect(abs(disagreement.factor - 1.4) < 1e-9)
        #expect(abs(pool.calibrationRatio! - 1.2) < 1e-9)
        let comparison = try Comparison(base: try Self.base(), current: Self.run(current), thresholds: .default, latency: .calibrated)
        #expect(!comparison.checks.contains { Comparison.latencyMetrics.contains($0.metric) })
        #expect(comparison.checks.contains { $0.metric == "generation.served_in_own_language" })
        #expect(comparison.checks.contains { $0.metric == "generation.fallback_rate" })
        let notJudged = try #require(comparison.latencyNotJudged)
        #expect(notJudged.runs == ["current"])
        #expect(notJudged.note.hasPrefix("⚠️ latency NOT JUDGED (neither passed nor failed): the pool's servers were unlike during the current run "
            + "(the current run: its pool's server-1 and server-2 differ by ×1.40 in prompt processing, beyond ×1.25)"), "\(notJudged.note)")
        #expect(comparison.markdown.hasPrefix("## ⚠️ LangBench: no regression in the checks judged; latency not judged"))
        #expect(comparison.junit.contains(#"name="not judged: pool servers unlike""#))
    }

    @Test func alikeServersAreJudged() throws {
        let comparison = try Comparison(base: try Self.base(), current: Self.run(try Self.pooled(first: 350, second: 360)), thresholds: .default, latency: .calibrated)
        #expect(comparison.latencyNotJudged == nil)
        #expect(comparison.checks.contains { $0.metric == "generation.latency" })
    }
}
