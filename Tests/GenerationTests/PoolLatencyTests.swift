@testable import Support
import Foundation
@testable import Generation
import GenerationTestSupport
@testable import Provenance
import TestSupport
import Testing

/// A pooled run's report: latency per server beside the pooled figures, and no pooled latency table when
/// the servers' calibrations differ beyond the margin.
struct PoolLatencyTests {
    /// The base fixture's records dealt over two servers whose calibrations take `first` and `second` ms
    /// (nil: not calibrated, as on an OpenAI-compatible API).
    static func pooled(first: Double?, second: Double?) throws -> GenerationReport {
        let base = try GenerationFixtures.report("base")
        let items = Array(Set(base.records.map(\.itemID))).sorted()
        let records = base.records.map { record -> GenerationRecord in
            var record = record
            record.server = PoolMember.label(items.firstIndex(of: record.itemID)! % 2)
            return record
        }
        var provenance = base.provenance
        provenance.servers = [PoolServer(label: "server-1", url: "http://10.0.0.5:8080", calibration: first.map(GenerationFixtures.calibration(ms:))),
                              PoolServer(label: "server-2", url: "http://10.0.0.6:8080", calibration: second.map(GenerationFixtures.calibration(ms:)), failed: true, unitsMoved: 3)]
        return GenerationReport(records: records, settings: base.settings, warmupRuns: base.warmupRuns, provenance: provenance)
    }

    @Test func alikeServersArePooledAndShownPerServer() throws {
        let report = try Self.pooled(first: 700, second: 760)
        let pool = try #require(report.pool)
        #expect(pool.pooled && pool.rows.map(\.server).contains("server-2"))
        #expect(report.markdown.contains("### Latency of model replies") && report.markdown.contains("### Latency per server"))
        #expect(report.markdown.contains("server-2 failed during the run: 3 item × repeat unit(s) moved"))
        #expect(CSVWriter.render(report.itemsTable).split(separator: "\n")[0].hasSuffix(",server,reassigned_from"))
    }

    @Test func unlikeServersAreNotPooled() throws {
        let report = try Self.pooled(first: 700, second: 700 * 1.3)
        let pool = try #require(report.pool)
        #expect(!pool.pooled && abs(pool.calibrationRatio! - 1.3) < 1e-9)
        #expect(!report.markdown.contains("### Latency of model replies"))
        #expect(report.markdown.contains("latency is NOT pooled across them"))
    }

    @Test func serversWithoutCalibrationAreNotPooled() throws {
        let report = try Self.pooled(first: 700, second: nil)
        let pool = try #require(report.pool)
        #expect(!pool.pooled && pool.uncalibrated == ["server-2"] && pool.disagreement == nil)
        #expect(!report.markdown.contains("### Latency of model replies"))
        #expect(report.markdown.contains("server-2 served replies without a calibration"))
        #expect(report.markdown.contains("latency is NOT pooled across them"))
    }

    @Test func oneServerHasNoPoolSection() throws {
        let report = try GenerationFixtures.report("base")
        #expect(report.pool == nil && !report.markdown.contains("Latency per server"))
    }
}
