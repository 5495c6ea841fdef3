import Checks
@testable import Comparison
import Corpus
@testable import Detection
import Foundation
import LangBenchCLI
@testable import Support
import TestSupport
import Testing

/// The detection gate on the outside corpus (text nobody on the project wrote, 2,000 items a language, built at set-up
/// from Debian's packages; `scripts/test` builds it and names it in `LANGBENCH_OUTSIDE_CORPUS`). A real detection run over
/// it with the default configs, copied; in the copy, German items are broken (and fixed) in every config by rewriting
/// their answers in the results log; `compare --alpha 0.025` (the CI job's share for detection) judges the copy.
@Suite(.needs(.simulation))
struct OutsideGateTests {
    static let alpha = "0.025"

    /// The run the plants are made in: every default config over the outside corpus, once for the suite.
    static func run() async throws -> URL {
        try await Cache.shared.run()
    }

    actor Cache {
        static let shared = Cache()
        private var directory: URL?

        func run() async throws -> URL {
            if let directory { return directory }
            let corpus = try #require(ProcessInfo.processInfo.environment["LANGBENCH_OUTSIDE_CORPUS"],
                                      "LANGBENCH_OUTSIDE_CORPUS names the outside corpus (scripts/test builds it)")
            try #require(FileManager.default.fileExists(atPath: corpus), "\(corpus): the outside corpus is not there (scripts/setup-outside-corpus)")
            let out = try Fixture.temporaryDirectory().appendingPathComponent("outside")
            let result = await runCommand(["detect", "--corpus", corpus, "--out", out.path, "--quiet"])
            try #require(result.status == .success, "detect: \(result.stderr)")
            directory = out
            return out
        }
    }

    /// A copy of `run` in which `broken` German items right in every config are answered Dutch, and `fixed` German items
    /// wrong in every config are answered German.
    static func plant(broken: Int, fixed: Int) async throws -> URL {
        let source = try await run()
        let copy = try Fixture.temporaryDirectory().appendingPathComponent("planted")
        try FileManager.default.copyItem(at: source, to: copy)
        let log = copy.appendingPathComponent("detection-results.jsonl")
        var lines = try String(contentsOf: log, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // Columns: config, detector, item_id, item_hash, lang, length, tags, predicted, ...
        var rows: [Int: [Any]] = [:]
        var right: [String: Int] = [:], seen: [String: Int] = [:]
        for index in lines.indices.dropFirst() where lines[index].contains("\"de\"") {
            guard let row = try JSONSerialization.jsonObject(with: Data(lines[index].utf8)) as? [Any], row[4] as? String == "de" else { continue }
            rows[index] = row
            let id = row[2] as! String
            seen[id, default: 0] += 1
            if row[7] as? String == "de" { right[id, default: 0] += 1 }
        }
        let configs = seen.values.max() ?? 0
        let alwaysRight = Set(right.filter { $0.value == configs }.keys.sorted().prefix(broken))
        let alwaysWrong = Set(seen.filter { right[$0.key, default: 0] == 0 && $0.value == configs }.keys.sorted().prefix(fixed))
        #expect(alwaysRight.count == broken && alwaysWrong.count == fixed)
        for (index, var row) in rows {
            let id = row[2] as! String
            guard alwaysRight.contains(id) || alwaysWrong.contains(id) else { continue }
            row[7] = alwaysRight.contains(id) ? "nl" : "de"
            lines[index] = String(decoding: try JSONSerialization.data(withJSONObject: row), as: UTF8.self)
        }
        try lines.joined(separator: "\n").write(to: log, atomically: true, encoding: .utf8)
        return copy
    }

    static func compare(_ current: URL) async throws -> CommandResult {
        await runCommand(["compare", try await run().path, current.path, "--alpha", alpha])
    }

    /// 40 of German's 2,000 items broken in every config: a 2-point drop, red; the headline sees ≤ 1 point at no churn.
    @Test func aTwoPointDropInOneLanguageIsRed() async throws {
        let result = try await Self.compare(try await Self.plant(broken: 40, fixed: 0))
        #expect(result.status == .checkFailed, "\(result.stdout)")
        #expect(result.stdout.contains("detection.accuracy | config=unconstrained lang=de |"), "\(result.stdout)")
        #expect(result.stdout.contains("-2.0 pts (0 fixed, 40 broken)"), "\(result.stdout)")
        let sight = try #require(result.stdout.split(separator: "\n").first { $0.hasPrefix("**What this compare can see**") })
        let points = try #require(sight.firstMatch(of: /a 2000-item language's accuracy in all 3 configs at once: ([0-9.]+) points/)?.output.1)
        #expect(try #require(Double(points)) <= 1, "\(sight)")
    }

    /// 20 broken and 20 fixed in every config: no net change, and no verdict; the churn is printed.
    @Test func aTradeOfEqualFixedAndBrokenIsNot() async throws {
        let result = try await Self.compare(try await Self.plant(broken: 20, fixed: 20))
        #expect(result.status == .success, "\(result.stdout)")
        #expect(result.stdout.contains("at the churn it saw (20 fixed, 20 broken)"), "\(result.stdout)")
    }

    /// How α is spent across 24 languages × 3 configs, measured over the outside run's real per-item outcomes: each simulated
    /// job flips a share of every language's items both ways at random, as many each way on average (a recognizer change's
    /// churn: the same item in every config where its language can be answered), plants a 2-point drop in German on top
    /// or not, and judges the counts with the compare's own rules (`DetectionComparer`, Holm within detection's share) at the
    /// α detection gets: all of 0.025 in a detection compare, a third of it (0.0083) beside generation's kinds in the A/B.
    /// The cost-weighted checks are left out (3 of the family's 78; with them each level would be a little lower).
    @Test func theGateKeepsItsSizeAndPowerUnderChurn() async throws {
        let simulation = try Churn(run: try DetectionStore.readRun(try await Self.run().path).results)
        var lines: [String] = []
        for alpha in [0.025, 0.025 / 3] {
            for churn in [0, 0.02, 0.08] {
                let jobs = 100
                let quiet = simulation.red(jobs: jobs, churn: churn, planted: 0, alpha: alpha, seed: 1)
                let planted = simulation.red(jobs: jobs, churn: churn, planted: 40, alpha: alpha, seed: 2)
                lines.append(String(format: "α %.4f, churn %2.0f%%: no change red %@; 40 of 2,000 German items broken in every config red %@",
                                    alpha, churn * 100, Self.rate(quiet, jobs), Self.rate(planted, jobs)))
                #expect(Double(quiet) <= 2 * alpha * Double(jobs) + 3, "size at churn \(churn)")
                if churn == 0 { #expect(planted == jobs, "a 2-point drop at no churn is always red") }
            }
        }
        print("outside-gate simulation:\n" + lines.joined(separator: "\n"))
    }

    static func rate(_ hits: Int, _ runs: Int) -> String {
        let w = Statistics.wilson(successes: hits, trials: runs)
        return String(format: "%d of %d (%.1f–%.1f%%)", hits, runs, w.low * 100, w.high * 100)
    }

    /// A Poisson draw (Knuth's product of uniforms; past 30, the normal approximation).
    static func poisson(_ mean: Double, _ generator: inout SplitMix64) -> Int {
        let uniform = { (g: inout SplitMix64) in (Double(g.next() >> 11) + 0.5) / Double(UInt64(1) << 53) }
        if mean > 30 { return max(0, Int((mean + mean.squareRoot() * Statistics.standardNormal(&generator)).rounded())) }
        var (count, product, limit) = (0, uniform(&generator), exp(-mean))
        while product > limit {
            count += 1
            product *= uniform(&generator)
        }
        return count
    }

    /// The real outcomes of the three gated configs, by language, and jobs drawn over them.
    struct Churn {
        static let configs = ["unconstrained", "constrained", "constrained+priors"]
        /// By language: each item's right/wrong bit per config (bit k: config k), and its error cost per config when wrong.
        var items: [(lang: LanguageCode, right: [UInt8], cost: [[Double]])] = []
        /// Per language and config: whether an item of the language can be right (its language can be answered), and how many are.
        var answerable: [[Bool]] = []
        var baseRight: [[Int]] = []
        /// German's items right in every config: where the planted drop is taken from.
        var alwaysRightGerman: [Int] = []
        /// By language: the items right wherever their language can be answered, and those wrong there (churn's pools).
        var steady: [(right: [Int], wrong: [Int])] = []
        let costs: ConfusionCosts?

        init(run: [DetectionResult]) throws {
            costs = try ConfusionCosts.standard()
            var byItem: [String: (lang: LanguageCode, right: UInt8, cost: [Double])] = [:]
            for result in run {
                guard let k = Self.configs.firstIndex(of: result.config) else { continue }
                var item = byItem[result.itemID] ?? (result.lang, 0, [0, 0, 0])
                if result.correct { item.right |= 1 << k } else { item.cost[k] = costs?.errorCost(gold: result.lang, predicted: result.predicted) ?? 1 }
                byItem[result.itemID] = item
            }
            let languages = Dictionary(grouping: byItem.keys.sorted(), by: { byItem[$0]!.lang }).sorted { $0.key < $1.key }
            for (lang, ids) in languages {
                items.append((lang, ids.map { byItem[$0]!.right }, ids.map { byItem[$0]!.cost }))
                let right = ids.map { byItem[$0]!.right }
                baseRight.append((0..<3).map { k in right.filter { $0 & (1 << k) != 0 }.count })
                answerable.append(baseRight[baseRight.count - 1].map { $0 > 0 })
                if lang.identifier == "de" { alwaysRightGerman = right.indices.filter { right[$0] == 0b111 } }
                let mask = (0..<3).reduce(UInt8(0)) { answerable[answerable.count - 1][$1] ? $0 | 1 << $1 : $0 }
                steady.append((right.indices.filter { right[$0] & mask == mask }, right.indices.filter { right[$0] & mask == 0 }))
            }
        }

        /// Jobs (of `jobs`) with a detection regression: each flips `churn` of every language's items (half each way) and
        /// breaks `planted` German items right in every config.
        func red(jobs: Int, churn: Double, planted: Int, alpha: Double, seed: UInt64) -> Int {
            var generator = SplitMix64(seed: seed)
            var thresholds = Thresholds.default
            thresholds.alpha = alpha
            var red = 0
            for _ in 0..<jobs {
                var joins = Self.configs.map { _ in DetectionJoin.ConfigJoin() }
                for (l, language) in items.enumerated() {
                    // Churn with no net change: as many items on average broken among those right wherever their language can be
                    // answered as fixed among those wrong there — Poisson(churn·n/2) each way, or fewer where a language has
                    // fewer errors to fix (a language at 100% can only lose items: a change there is not churn).
                    var moves: [Int: Int] = [:]
                    let mean = min(churn * Double(language.right.count) / 2, Double(min(steady[l].right.count, steady[l].wrong.count)) / 2)
                    for (way, pool) in [(-1, steady[l].right), (1, steady[l].wrong)] where churn > 0 {
                        var pool = pool
                        let count = min(pool.count, OutsideGateTests.poisson(mean, &generator))
                        for j in 0..<count {
                            pool.swapAt(j, j + Int(generator.next() % UInt64(pool.count - j)))
                            moves[pool[j]] = way
                        }
                    }
                    if language.lang.identifier == "de" {
                        for i in alwaysRightGerman.lazy.filter({ moves[$0] == nil }).prefix(planted) { moves[i] = -1 }
                    }
                    for k in 0..<3 {
                        var counts = DetectionJoin.Counts()
                        counts.n = language.right.count
                        counts.baseRight = baseRight[l][k]
                        counts.currentRight = counts.baseRight
                        for (i, move) in moves {
                            let before = language.right[i] & (1 << k) != 0
                            let after = move < 0 ? false : before || answerable[l][k]
                            guard before != after else { continue }
                            if before { counts.broken += 1; counts.currentRight -= 1 } else { counts.fixed += 1; counts.currentRight += 1 }
                            let difference = after ? -language.cost[i][k] : costs?.defaultCost ?? 1
                            joins[k].cost.current += difference
                            joins[k].costDifferences.append(difference)
                        }
                        joins[k].byLanguage[language.lang] = counts
                        joins[k].all.n += counts.n
                        joins[k].all.baseRight += counts.baseRight
                        joins[k].all.currentRight += counts.currentRight
                        joins[k].all.fixed += counts.fixed
                        joins[k].all.broken += counts.broken
                    }
                }
                // Without the cost-weighted checks: their sign-flip tests draw 20,000 times over thousands of differences a job.
                let join = DetectionJoin(configs: zip(Self.configs, joins).map { ($0, $1) }, costs: nil)
                // Planned at no churn: the verdict does not depend on the mde, which at the churn seen takes seconds a job in a debug build.
                let unplanned = DetectionComparer.checks(join, thresholds: thresholds).map { check in
                    var check = check
                    check.powerBasis = .paired(churn: 0, n: check.n, designEffect: 1)
                    return check
                }
                let checks = MetricCheck.familyWise(unplanned, alpha: alpha)
                if checks.contains(where: { $0.status == .regression }) { red += 1 }
            }
            return red
        }
    }
}
