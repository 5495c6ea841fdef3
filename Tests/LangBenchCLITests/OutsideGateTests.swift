import Foundation
import LangBenchCLI
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
}
