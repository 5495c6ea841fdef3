import Support
import Checks
import Detection
import Foundation
import Corpus
import Comparison
import Provenance

/// Synthetic detection runs in the real on-disk format (results log, per-item CSV, reports) for
/// `bench results-scale`: what `compare` and `merge` of large runs are measured on. Item `i` has the
/// id `item-` and nine digits, a gold language of ru, uk, bg or en, and per config and run a prediction
/// drawn from a seeded hash: right 90% of the time in the base run, with 2% of items flipped each
/// way in the current run.
package enum ResultsScaleBenchmark {
    /// Which run to write.
    package enum Run: Sendable {
        /// Every item, predictions of the base run.
        case base
        /// Every item, the base run's predictions with 2% of items flipped each way.
        case current
        /// Shard `index` of `count` of the base run: the items whose number is `index` mod `count`.
        case shard(index: Int, count: Int)
    }

    static let languages = ["ru", "uk", "bg", "en"].map { LanguageCode(normalised: $0) }

    /// Writes `run` of `items` items and `configs` configs into `directory`; returns the bytes written.
    package static func write(_ run: Run, items: Int, configs: Int, seed: UInt64, to directory: URL) throws -> Int {
        try ReportError.writing(directory) { try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true) }
        let echoes = (0..<configs).map { DetectionReport.ConfigEcho(name: "c\($0)", detector: DetectorKind.builtin.spec, candidates: "ru,uk,bg,en", resolvedCandidates: nil, hints: "") }
        let header = DetectionLogHeader(configs: echoes, settings: .init(recognizerModelHash: String(repeating: "0", count: 64)))
        let numbers: StrideTo<Int>
        switch run {
        case .base, .current: numbers = stride(from: 0, to: items, by: 1)
        case .shard(let index, let count): numbers = stride(from: index, to: items, by: count)
        }
        let store = try DetectionStore.Writer(creating: directory, header: header, echoes: echoes, itemCount: items)
        var count = 0
        for config in 0..<configs {
            var position = 0
            for i in numbers {
                let id = "item-" + String(repeating: "0", count: max(0, 9 - String(i).count)) + String(i)
                let lang = languages[i % languages.count]
                var right = mix(seed, UInt64(i), UInt64(config), 0) % 100 < 90
                if case .current = run, mix(seed, UInt64(i), UInt64(config), 1) % 100 < 2 { right.toggle() }
                let predicted = right ? lang : languages[(i + 1) % languages.count]
                let result = DetectionResult(itemID: id, lang: lang, tags: [], length: .one, config: "c\(config)", detector: DetectorKind.builtin.spec,
                                             predicted: predicted, confidence: Double(mix(seed, UInt64(i), UInt64(config), 2) % 10_000) / 10_000,
                                             error: nil, itemHash: String(format: "%016llx", mix(seed, UInt64(i), 3)))  // a fingerprint's form
                try store.record(result, config: config, position: position)
                position += 1
            }
            count = position
        }
        let timings = echoes.map { DetectionRunner.Timing(config: $0.name, detector: $0.detector, items: count, seconds: 1, itemsPerSecond: Double(count), loadMs: 0) }
        var provenance = Provenance(command: ["bench", "results-scale"], corpora: [CorpusSource(path: "synthetic", format: .tsv, sha256: String(repeating: "a", count: 64), items: items)],
                                    gitCommit: nil)
        provenance.finish()
        let report = try store.finish(timings: timings, provenance: provenance)
        try DetectionOutput.write(report, to: directory)
        try RunPage.write(detection: report, generation: nil, to: directory)
        return try CorpusScaleBenchmark.directoryBytes(directory)
    }

    /// A well-mixed 64-bit hash of the seed, item, config and purpose (SplitMix64's finaliser).
    static func mix(_ values: UInt64...) -> UInt64 {
        var h: UInt64 = 0x9E37_79B9_7F4A_7C15
        for value in values {
            h = (h ^ value) &* 0xBF58_476D_1CE4_E5B9
            h ^= h >> 31
            h = h &* 0x94D0_49BB_1331_11EB
            h ^= h >> 29
        }
        return h
    }
}

extension ResultsScaleBenchmark {
    /// The runs `write` makes for the benchmark, by directory name.
    package static let runs: [(name: String, run: Run)] = [("base", .base), ("current", .current), ("shard-1", .shard(index: 0, count: 2)),
                                                          ("shard-2", .shard(index: 1, count: 2))]

    /// What one measured step took in its own process.
    package struct Step: Sendable, Codable, Equatable {
        package var seconds: Double
        package var peakResidentBytes: Int
        /// The comparison's checks and regressions (compare only), so a step that compared nothing shows it.
        package var checks: Int?
        package var regressions: Int?

        enum CodingKeys: String, CodingKey { case seconds, peakResidentBytes = "peak_rss_bytes", checks, regressions }
    }

    /// The steps measured, each in a child process of its own.
    package enum StepName: String, Sendable, CaseIterable { case compare, merge }

    /// Runs `step` on the runs in `directory` in this process (what the child does): `compare` without rendering, or `merge` of the shards.
    package static func measure(_ step: StepName, in directory: URL) throws -> Step {
        let path = { (run: String) in directory.appendingPathComponent(run).path }
        let start = ContinuousClock.now
        var checks: Int?, regressions: Int?
        switch step {
        case .compare:
            let comparison = try Comparison(base: RunResults.load(path("base")), current: RunResults.load(path("current")), thresholds: .default,
                                            allowMismatch: true)
            (checks, regressions) = (comparison.checks.count, comparison.regressions.count)
        case .merge:
            _ = try RunMerger.merge([path("shard-1"), path("shard-2")], into: directory.appendingPathComponent("merged"), command: ["merge"])
        }
        return Step(seconds: (ContinuousClock.now - start).seconds, peakResidentBytes: SystemCall.peakResidentBytes() ?? -1,
                    checks: checks, regressions: regressions)
    }
}

extension ResultsScaleBenchmark {
    /// The line saying what was written: `bytes` of the four runs in `seconds`.
    package static func writtenLine(items: Int, configs: Int, bytes: Int, seconds: Double) -> String {
        String(format: "wrote 4 runs of %d items × %d config(s) (base, current, two shards of base), %.1f MB, in %.1f s\n",
               items, configs, Double(bytes) / 1_000_000, seconds)
    }

    /// The line of one step measured in its child (`wall`: with the process start).
    package static func stepLine(_ name: StepName, _ step: Step, wall: Double, items: Int, configs: Int) -> String {
        String(format: "%@: %.2f s (%.2f s with process start), %.0f items/s, %.0f results/s, peak resident memory %.0f MB\n",
               name.rawValue, step.seconds, wall, Double(items) / step.seconds, Double(items * configs) / step.seconds,
               Double(step.peakResidentBytes) / 1_048_576)
    }

    /// The machine-readable last line.
    package static func lastLine(items: Int, configs: Int, compare c: Step, merge m: Step) -> String {
        String(format: "items=%d configs=%d compare_seconds=%.3f compare_items_per_second=%.0f compare_peak_rss_mb=%.0f merge_seconds=%.3f merge_items_per_second=%.0f merge_peak_rss_mb=%.0f\n",
               items, configs, c.seconds, Double(items) / c.seconds, Double(c.peakResidentBytes) / 1_048_576,
               m.seconds, Double(items) / m.seconds, Double(m.peakResidentBytes) / 1_048_576)
    }
}
