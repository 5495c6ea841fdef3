@testable import Detection
import Foundation
@testable import Generation
import Suite
@testable import LangBenchCLI
import TestSupport
import Testing

/// A finished detection run whose results log was emptied or cut short is refused by `merge` (and
/// `compare`) naming the log, instead of being read as a run of fewer or no items.
struct TruncatedLogTests {
    enum Damage: String, CaseIterable {
        case emptied, lastLineCut

        func apply(to log: URL) throws {
            switch self {
            case .emptied: try Data().write(to: log)
            case .lastLineCut:
                let lines = try String(contentsOf: log, encoding: .utf8).split(separator: "\n")
                try (lines.dropLast().joined(separator: "\n") + "\n").write(to: log, atomically: true, encoding: .utf8)
            }
        }
    }

    @Test(arguments: Damage.allCases)
    func mergeAndCompareRefuseADamagedResultsLog(damage: Damage) async throws {
        let directory = try Fixture.temporaryDirectory()
        let corpus = try CommandFixtures.wordCorpus(in: directory, count: 6, ukrainian: 3)
        let run = directory.appendingPathComponent("run")
        let detected = await runCommand(["detect", "--corpus", corpus, "--candidates", "ru,uk", "--out", run.path, "--quiet"])
        #expect(detected.status == .success, "\(detected.stderr)")
        let log = run.appendingPathComponent(DetectionOutput.resultsLog)
        try damage.apply(to: log)
        let found = damage == .emptied ? 0 : 5
        let expected = "error: \(log.path): holds \(found) results of config 'custom', but detection.json counts 6: "
            + "the log was emptied or cut short; copy the whole run directory, or run it again\n"
        let merged = directory.appendingPathComponent("merged")
        let merge = await runCommand(["merge", run.path, "--out", merged.path])
        #expect(merge.status == .dataError)
        #expect(merge.stderr == expected)
        #expect(!FileManager.default.fileExists(atPath: merged.path))
        let compare = await runCommand(["compare", run.path, run.path])
        #expect(compare.status == .dataError)
        #expect(compare.stderr == expected)
    }
}
