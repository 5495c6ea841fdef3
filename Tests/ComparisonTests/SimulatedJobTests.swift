@testable import Support
import Checks
import Foundation
@testable import Generation
import Corpus
import Comparison
import Provenance
import TestSupport
import Testing

/// CI jobs simulated over the committed baseline's real records — its 93 direct and 65 pivot model replies, and 11 through Apertium's pivot, their real
/// latencies, routes and languages — and judged by the whole `compare` at the α the job gives its A/B (0.05 over its two
/// compares) with the job's default number of interleaved blocks. Each simulated side is the real record with run-to-run
/// noise per record (σ 0.08 in log, measured between same-runner A/A sides) and a drift per block and side (the two
/// sides of a block differ by σ 0.035 in log); a planted change is applied to the candidate's records. Detection is
/// left out: in a job that does not change it, it is identical on both sides and gets no share of α.
/// A simulation stands for the model of noise it draws from; the real jobs are in docs/benchmarks.md.
@Suite(.needs(.simulation))
struct SimulatedJobTests {
    static let alpha = 0.025
    static let blocks = 12
    static let itemNoise = 0.08, blockDrift = 0.035

    static let baseline: GenerationReport = {
        do {
            return try #require(try RunResults.load(Fixture.repository.appendingPathComponent("Reports/baseline").path).generation)
        } catch { fatalError("the committed baseline: \(error)") }
    }()

    /// One side: every model reply's latencies moved by its noise and its block's drift. A record another detection
    /// config shares with the suite's own (the same request) shares its noise.
    static func side(_ records: [GenerationRecord], generator: inout SplitMix64, drift: [Double]) throws -> [GenerationRecord] {
        let shards = try (1...blocks).map { try Shard("\($0)/\(blocks)") }
        var noise: [String: Double] = [:]
        return records.map { record in
            var record = record
            guard record.outcome == .model else { return record }
            let request = "\(record.itemID) \(record.route) \(record.repeatIndex) \(record.shared == true ? "" : record.config ?? "")"
            if noise[request] == nil { noise[request] = itemNoise * Statistics.standardNormal(&generator) }
            let block = shards.firstIndex { $0.contains(record.itemID) } ?? 0
            scale(&record, by: exp(noise[request]! + drift[block]))
            return record
        }
    }

    static func scale(_ record: inout GenerationRecord, by factor: Double, totalOnly: Bool = false) {
        record.totalMs *= factor
        guard !totalOnly else { return }
        record.ttftMs = record.ttftMs.map { $0 * factor }
        record.tpotMs = record.tpotMs.map { $0 * factor }
    }

    /// One job's judged checks: both sides drawn, `plant` applied to the candidate's records, checked as `compare
    /// --latency same-runner` checks them (steady calibrations: no machine scale) and judged family-wise at the job's α.
    static func job(seed: UInt64, plant: ([GenerationRecord]) -> [GenerationRecord] = { $0 }) throws -> [MetricCheck] {
        var generator = SplitMix64(seed: seed)
        let drift = (0..<blocks).map { _ in (blockDrift / 2.0.squareRoot()) * Statistics.standardNormal(&generator) }
        let otherDrift = (0..<blocks).map { _ in (blockDrift / 2.0.squareRoot()) * Statistics.standardNormal(&generator) }
        var base = baseline, current = baseline
        base.records = try side(baseline.records, generator: &generator, drift: drift)
        current.records = plant(try side(baseline.records, generator: &generator, drift: otherDrift))
        let shards = (1...blocks).map { "\($0)/\(blocks)" }
        base.provenance.blocks = shards
        current.provenance.blocks = shards
        var thresholds = Thresholds.default
        thresholds.alpha = alpha
        let checks = GenerationComparer.checks(base: base, current: current, thresholds: thresholds, machine: .identity)
        return MetricCheck.familyWise(checks, alpha: alpha)
    }

    static func rate(_ hits: Int, _ runs: Int) -> String {
        let w = Statistics.wilson(successes: hits, trials: runs)
        return String(format: "%d of %d (%.1f–%.1f%%)", hits, runs, w.low * 100, w.high * 100)
    }

    /// The slowest tenth of each route's items by their real latency, doubled in every field of every record of theirs.
    static func doubleSlowestTenth(_ records: [GenerationRecord]) -> [GenerationRecord] {
        slowestTenth(records, by: 2, routes: Route.allCases)
    }

    /// The slowest tenth of each of `routes`' items by their real latency, every record of theirs slowed by `ratio`.
    static func slowestTenth(_ records: [GenerationRecord], by ratio: Double, routes: [Route], totalOnly: Bool = false) -> [GenerationRecord] {
        var out = records
        for route in routes {
            let own = baseline.records.filter { $0.route == route && $0.outcome == .model && $0.config == nil }
            let slowest = Set(own.sorted { $0.totalMs > $1.totalMs }.prefix(Int((Double(own.count) * 0.1).rounded(.up))).map(\.itemID))
            for index in out.indices where out[index].route == route && out[index].outcome == .model && slowest.contains(out[index].itemID) {
                scale(&out[index], by: ratio, totalOnly: totalOnly)
            }
        }
        return out
    }

    /// No change: at most 2% of jobs red. A uniform +20% (twice the threshold) and a doubled slowest tenth: each caught in
    /// at least 80% of jobs, the tail by its own check.
    @Test func theJobIsQuietWithoutChangeAndSeesLatencyRegressions() throws {
        let runs = 100
        let quiet = try (0..<runs).filter { try Self.job(seed: UInt64($0)).contains { $0.status == .regression } }.count
        let uniform = try (0..<runs / 2).filter { seed in
            try Self.job(seed: 10_000 + UInt64(seed)) { $0.map { var r = $0; if r.outcome == .model { Self.scale(&r, by: 1.2) }; return r } }.contains { $0.status == .regression }
        }.count
        var tailByItsCheck = 0
        let tail = try (0..<runs / 2).filter { seed in
            let regressions = try Self.job(seed: 20_000 + UInt64(seed), plant: Self.doubleSlowestTenth).filter { $0.status == .regression }
            if regressions.contains(where: { $0.metric == MetricName.slowestTenth }) { tailByItsCheck += 1 }
            return !regressions.isEmpty
        }.count
        print("simulated jobs at α \(Self.alpha), \(Self.blocks) blocks: no change red \(Self.rate(quiet, runs)); uniform ×1.20 caught \(Self.rate(uniform, runs / 2)); "
              + "doubled slowest tenth caught \(Self.rate(tail, runs / 2)), by the tail check \(Self.rate(tailByItsCheck, runs / 2))")
        #expect(Double(quiet) <= 0.02 * Double(runs))
        #expect(Double(uniform) >= 0.8 * Double(runs / 2))
        #expect(Double(tailByItsCheck) >= 0.8 * Double(runs / 2))
    }

    /// The printed mde is what the job catches 80% of the time: the direct route's total latency moved by exactly its
    /// printed mde beyond the threshold (the median printed over no-change jobs) is caught in 70–90% of jobs; at half
    /// that distance beyond the threshold, less often.
    @Test func thePrintedLatencyMdeIsCaughtEightyPercentOfTheTime() throws {
        let metric = "generation.latency", key = "variant=llm route=direct"  // the baseline runs both translation engines
        let printed = try (0..<51).compactMap { seed in
            try Self.job(seed: 30_000 + UInt64(seed)).first { $0.metric == metric && $0.key.description == key }?.mde
        }.sorted()
        let mde = try #require(printed.isEmpty ? nil : printed[printed.count / 2])
        func caught(_ ratio: Double, seeds: Range<UInt64>) throws -> Int {
            try seeds.filter { seed in
                try Self.job(seed: seed) { records in
                    records.map { var r = $0; if r.outcome == .model && r.route == .direct { Self.scale(&r, by: ratio, totalOnly: true) }; return r }
                }.contains { $0.status == .regression && $0.metric == metric && $0.key.description == key }
            }.count
        }
        let runs = 300
        let atMde = try caught((1 + Thresholds.default.latencyRatio) * (1 + mde), seeds: 40_000..<(40_000 + UInt64(runs)))
        let atHalf = try caught((1 + Thresholds.default.latencyRatio) * (1 + mde / 2), seeds: 50_000..<(50_000 + UInt64(runs / 2)))
        print(String(format: "printed mde of %@ %@: %+.2f%% beyond ×1.10; injected, caught %@; at half of it, %@", metric, key, mde * 100,
                     Self.rate(atMde, runs), Self.rate(atHalf, runs / 2)))
        #expect(Double(atMde) >= 0.7 * Double(runs) && Double(atMde) <= 0.9 * Double(runs))
        #expect(Double(atHalf) / Double(runs / 2) < Double(atMde) / Double(runs))
    }

    /// The same for the slowest tenth's exact test: its printed mde (median over no-change jobs), injected into the direct
    /// route's slowest tenth beyond the threshold, is caught in 70–90% of jobs.
    @Test func thePrintedTailMdeIsCaughtEightyPercentOfTheTime() throws {
        let metric = MetricName.slowestTenth, key = "variant=llm route=direct"
        let printed = try (0..<51).compactMap { seed in
            try Self.job(seed: 60_000 + UInt64(seed)).first { $0.metric == metric && $0.key.description == key }?.mde
        }.sorted()
        let mde = try #require(printed.isEmpty ? nil : printed[printed.count / 2])
        let runs = 200
        let caught = try (0..<UInt64(runs)).filter { seed in
            try Self.job(seed: 70_000 + seed) {
                Self.slowestTenth($0, by: (1 + Thresholds.default.latencyRatio) * (1 + mde), routes: [.direct], totalOnly: true)
            }.contains { $0.status == .regression && $0.metric == metric && $0.key.description == key }
        }.count
        print(String(format: "printed mde of %@ %@: %+.2f%% beyond ×1.10; injected into the slowest tenth, caught %@", metric, key, mde * 100,
                     Self.rate(caught, runs)))
        #expect(Double(caught) >= 0.7 * Double(runs) && Double(caught) <= 0.9 * Double(runs))
    }
}
