@testable import Support
import Checks
@testable import Detection
import Foundation
@testable import Generation
@testable import Corpus
@testable import Suite
@testable import Comparison
import TestSupport
import Testing

/// `compare` and `merge` stream per-item results (`DetectionStore`); these pin that they decide what
/// the in-memory reading of every result decided.
struct StreamingComparisonTests {
    /// Three configs of the script detector, which gets Ukrainian right only when it is the first
    /// Cyrillic candidate.
    static let configs = [
        DetectionConfig(name: "uk-first", detector: RunFixtures.detector, candidates: .list([LanguageCode(normalised: "uk"), LanguageCode(normalised: "ru")])),
        DetectionConfig(name: "none", detector: RunFixtures.detector, candidates: .none),
        DetectionConfig(name: "ru-first", detector: RunFixtures.detector, candidates: .list([LanguageCode(normalised: "ru"), LanguageCode(normalised: "uk")])),
    ]

    static func run(_ items: [CorpusItem], configs: [DetectionConfig] = configs) async throws -> RunResults {
        let directory = try Fixture.temporaryDirectory()
        let corpus = Corpus(items: items, sources: RunFixtures.corpus.sources)
        _ = try await DetectionJob(corpus: corpus, configs: configs, supported: [], factory: DetectorFactory(), directory: directory,
                                   command: ["test"]).run()
        return try RunResults.load(directory.path)
    }

    /// The checks as `compare` made them from every result in memory, before it streamed.
    static func inMemoryChecks(base: RunResults, current: RunResults, thresholds: Thresholds) throws -> [MetricCheck] {
        let (a, b) = (try base.detectionResults, try current.detectionResults)
        var checks: [MetricCheck] = []
        let configs = current.detection!.configs.map(\.name).filter { config in base.detection!.configs.contains { $0.name == config } }
        for config in configs {
            let before = Dictionary(a.filter { $0.config == config }.map { ($0.itemID, $0) }, uniquingKeysWith: { a, _ in a })
            let pairs = b.filter { $0.config == config }.compactMap { result in before[result.itemID].map { ($0, result) } }
            checks.append(DetectionComparer.check(pairs, key: CheckKey([.config: config]), points: thresholds.accuracyPoints, family: "detection.accuracy"))
            for (lang, subset) in Dictionary(grouping: pairs, by: { $0.0.lang }).sorted(by: { $0.key < $1.key }) where subset.count >= thresholds.languageMinItems {
                var check = DetectionComparer.check(subset, key: CheckKey([.config: config, .lang: lang.identifier]), points: thresholds.languageAccuracyPoints,
                                                    family: "detection.accuracy config=\(config) languages")
                // A language's drop moves it in the other configs and each config's accuracy (no cost matrix here).
                check.movesWith = (configs.count - 1) + configs.count
                checks.append(check)
            }
        }
        return MetricCheck.holm(checks, alpha: thresholds.alpha)
    }

    static func inMemoryBroken(base: RunResults, current: RunResults, config: String) throws -> [String] {
        let before = Dictionary(try base.detectionResults.filter { $0.config == config }.map { ($0.itemID, $0.correct) }, uniquingKeysWith: { a, _ in a })
        return try current.detectionResults.filter { $0.config == config && !$0.correct && before[$0.itemID] == true }.map(\.itemID)
    }

    @Test func streamingChecksEqualTheInMemoryOnes() async throws {
        let items = RunFixtures.corpus.items
        // Base lacks the last ten Ukrainian items; current lacks the first five Russian ones and has its
        // config order changed (the join reads base's configs out of its order), and its 'uk-first' puts ru first.
        let base = try await Self.run(items.filter { !["uk-050", "uk-051", "uk-052", "uk-053", "uk-054", "uk-055", "uk-056", "uk-057", "uk-058", "uk-059"].contains($0.id) })
        let current = try await Self.run(items.filter { !["ru-000", "ru-001", "ru-002", "ru-003", "ru-004"].contains($0.id) },
                                         configs: [Self.configs[2], Self.configs[0], Self.configs[1]].map { var c = $0; if c.name == "uk-first" { c.candidates = .list([LanguageCode(normalised: "ru"), LanguageCode(normalised: "uk")]) }; return c })
        let thresholds = Thresholds.default
        for (a, b) in [(base, current), (current, base)] {
            let join = try DetectionJoin(base: a.detectionStore!, current: b.detectionStore!)
            let streamed = DetectionComparer.checks(join, thresholds: thresholds)
            let reference = try Self.inMemoryChecks(base: a, current: b, thresholds: thresholds)
            #expect(streamed == reference)
            #expect(streamed.contains { $0.status != .unchanged })
            for (name, counts) in join.configs {
                #expect(counts.brokenItems == (try Self.inMemoryBroken(base: a, current: b, config: name)))
                #expect(counts.all.broken == counts.brokenItems.count)
            }
            #expect(join.sharesItems && join.disjoint == nil)
            let comparison = try Comparison(base: a, current: b, thresholds: thresholds, allowMismatch: true)
            #expect(comparison.regressions.count + comparison.improvements.count > 0)
        }
        // Capped: the first broken ids kept, all of them counted.
        let capped = try DetectionJoin(base: current.detectionStore!, current: base.detectionStore!, brokenCap: 3)
        let full = try DetectionJoin(base: current.detectionStore!, current: base.detectionStore!)
        for ((_, few), (_, all)) in zip(capped.configs, full.configs) {
            #expect(few.brokenItems == Array(all.brokenItems.prefix(3)) && few.all == all.all)
        }
    }

    @Test func runsSharingNoItemAreRefusedWithTheirCounts() async throws {
        let items = RunFixtures.corpus.items
        let a = try await Self.run(Array(items.prefix(30))), b = try await Self.run(Array(items.suffix(50)), configs: [Self.configs[1]])
        let refusal = #expect(throws: ComparisonError.self) { try Comparison(base: a, current: b, thresholds: .default, allowMismatch: true) }
        #expect(refusal.map(String.init(describing:)) == "the runs are not comparable: the detection results share no item id (30 in base, e.g. 'uk-000'; 50 in current, e.g. 'ru-000'): compare runs of the same corpus")
        // Another config over overlapping items is sharing, though no config of both pairs them.
        let c = try await Self.run(Array(items.suffix(60)), configs: [Self.configs[1]])
        let join = try DetectionJoin(base: a.detectionStore!, current: c.detectionStore!)
        #expect(join.sharesItems && join.configs.first { $0.name == "none" }!.join.all.n == 10)
    }

    /// A log of canonical segments out of order (as resumes append them) reads as the canonical log when its
    /// index says where they start, and is refused without it.
    @Test func aLogOfSegmentsReadsInCanonicalOrder() async throws {
        let run = try await Self.run(RunFixtures.corpus.items)
        let store = run.detectionStore!
        let sorted = try store.allResults()
        let (header, results) = try ResumeStreamingTests.lines(store.log)
        let pieces = ResumeStreamingTests.segmented(results[...], parts: 3)
        try ResumeStreamingTests.write(store.log, header: header, results: pieces.joined())
        #expect(throws: DamagedLog.self) { _ = try store.allResults() }
        try ResumeStreamingTests.write(store.log, header: header, pieces: pieces)
        #expect(try store.allResults() == sorted)
        let other = try await Self.run(RunFixtures.corpus.items)
        let reference = try Self.inMemoryChecks(base: run, current: other, thresholds: .default)
        #expect(DetectionComparer.checks(try DetectionJoin(base: store, current: other.detectionStore!), thresholds: .default) == reference)
    }

    /// A report of schema 1 (no item count: its results were once sorted in memory to count them) is refused naming its version.
    @Test func aReportOfSchemaOneIsRefused() async throws {
        let run = try await Self.run(RunFixtures.corpus.items)
        let json = run.detectionStore!.log.deletingLastPathComponent().appendingPathComponent(DetectionOutput.jsonFile)
        var object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: json)) as? [String: Any])
        object["schema_version"] = 1
        try JSONSerialization.data(withJSONObject: object).write(to: json)
        let error = try #require(throws: ConfigurationError.self) { _ = try DetectionStore(json.path) }
        #expect("\(error)".contains("schema_version 1") && "\(error)".contains(json.path))
    }

    /// A cut log is refused at the end of the pass, as reading it whole refused it.
    @Test func aCutLogIsRefused() async throws {
        let run = try await Self.run(RunFixtures.corpus.items)
        let lines = try String(contentsOf: run.detectionStore!.log, encoding: .utf8).split(separator: "\n")
        try (lines.dropLast(3).joined(separator: "\n") + "\n").write(to: run.detectionStore!.log, atomically: true, encoding: .utf8)
        let other = try await Self.run(RunFixtures.corpus.items)
        #expect(throws: DamagedLog.self) { try DetectionJoin(base: run.detectionStore!, current: other.detectionStore!) }
        #expect(throws: DamagedLog.self) { try run.detectionStore!.allResults() }
    }

    /// Merged shards of several configs equal the unsharded run byte for byte (per-item CSV and log).
    @Test func streamedMergeEqualsTheUnshardedRun() async throws {
        let items = RunFixtures.corpus.items
        let whole = try await Self.run(items)
        let shards = try (1...3).map { try Shard("\($0)/3") }
        var directories: [String] = []
        for shard in shards { directories.append(try await Self.run(items.filter { shard.contains($0.id) }).path) }
        let output = try Fixture.temporaryDirectory()
        let (merged, _) = try RunMerger.merge(directories, into: output, command: ["merge"])
        let bytes = { (directory: String, file: String) in try Data(contentsOf: URL(fileURLWithPath: directory).appendingPathComponent(file)) }
        for file in [DetectionOutput.itemsFile, DetectionOutput.resultsLog, DetectionOutput.summaryFile] {
            #expect(try bytes(output.path, file) == bytes(whole.path, file), "\(file)")
        }
        #expect(merged?.slices == whole.detection?.slices && merged?.comparisons == whole.detection?.comparisons)
        // A shard given twice overlaps: refused, naming both directories and the first shared result.
        #expect(throws: ComparisonError.self) { try RunMerger.merge([directories[0], directories[1], directories[0]], into: try Fixture.temporaryDirectory(), command: ["merge"]) }
        do {
            _ = try RunMerger.merge([directories[1], directories[1]], into: try Fixture.temporaryDirectory(), command: ["merge"])
        } catch {
            #expect(String(describing: error).hasPrefix("cannot merge: \(directories[1]) and \(directories[1]) both hold config uk-first, item "))
        }
    }
}
