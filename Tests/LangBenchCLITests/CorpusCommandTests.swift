import Foundation
import Testing
import TestSupport
@testable import LangBenchCLI

struct CorpusCommandTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../CorpusTests/Fixtures/corpus").standardized.path

    @Test func validateReportsAllProblemsAndExits65() async {
        let path = "\(Self.fixtures)/bad.tsv"
        let result = await runCommand(["corpus", "validate", path])
        #expect(result.status == .dataError)
        #expect(result.status.rawValue == 65)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.map { $0.replacingOccurrences(of: path, with: "bad.tsv") } == [
            "bad.tsv:3: unknown language code 'xx' (use an ISO 639 code such as 'ru', 'uk' or 'zh-Hans')",
            "bad.tsv:4: empty text",
            "bad.tsv:5: duplicate id 'a1' (first at bad.tsv:2)",
            "bad.tsv:6: invalid UTF-8",
        ])
        #expect(result.stderr == "4 problem(s) in 1 file(s)\n")
    }

    @Test func validateCleanCorpusExitsZero() async {
        let result = await runCommand(["corpus", "validate", "\(Self.fixtures)/items.jsonl", "\(Self.fixtures)/quoted.csv"])
        #expect(result.status == .success)
        #expect(result.stdout == "ok: 4 items in 2 file(s)\n")
    }

    @Test func missingFileIsBadInput() async {
        let result = await runCommand(["corpus", "validate", "/nonexistent/x.tsv"])
        #expect(result.status == .dataError)
        #expect(result.stderr == "error: /nonexistent/x.tsv: cannot read (no such file or directory)\n")
    }

    @Test func unknownFormatIsAUsageError() async {
        let result = await runCommand(["corpus", "validate", "--format", "xml", "x.tsv"])
        #expect(result.status == .usage)
        #expect(result.stderr.hasPrefix("error: --format must be one of tsv, csv, jsonl, lines, tatoeba, not 'xml'\nUsage: langbench corpus validate <paths> ... [<options>]"))
    }

    @Test func statsJSON() async {
        let result = await runCommand(["corpus", "stats", "--json", "\(Self.fixtures)/items.jsonl"])
        #expect(result.status == .success)
        Snapshot.assert(result.stdout, named: "corpus-stats.json")
    }
}
