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

/// `corpus import` as a user runs it: the corpus and the ambiguity list written, the summary printed, and the
/// documented exit code for a bad spec (64) or a bad file (65), naming it.
struct CorpusImportCommandTests {
    @Test func importWritesTheCorpusAndTheAmbiguityListAndValidates() async throws {
        let directory = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let uk = directory.appendingPathComponent("uk.ftl"), mk = directory.appendingPathComponent("mk.ftl")
        try "a = вода\nb = добрий ранок\nc = { $n } файлів\n".write(to: uk, atomically: true, encoding: .utf8)
        try "a = вода\nb = добро утро\n".write(to: mk, atomically: true, encoding: .utf8)
        let folder = directory.appendingPathComponent("outside")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let out = folder.appendingPathComponent("outside.tsv").path
        let result = await runCommand(["corpus", "import", "--out", out, "--corpus-tag", "outside", "firefox:uk=\(uk.path)", "firefox:mk=\(mk.path)"])
        #expect(result.status == .success, "\(result.stderr)")
        #expect(result.stdout.contains("| uk | 1 | 1 | 0 | 1 | 0 | 1 | placeholder or markup 1 |"), "\(result.stdout)")
        let corpus = try String(contentsOfFile: out, encoding: .utf8)
        #expect(corpus.split(separator: "\n").dropFirst().map { $0.split(separator: "\t")[2] } == ["добро утро", "добрий ранок"])
        #expect(corpus.split(separator: "\n").dropFirst().allSatisfy { $0.split(separator: "\t")[3].split(separator: ";").contains("corpus:outside") })
        let shared = try String(contentsOfFile: folder.appendingPathComponent("outside.ambiguous.tsv").path, encoding: .utf8)
        #expect(shared == "id\tlangs\ttext\tsources\namb-1\tmk;uk\tвода\tfirefox\n")
        // The folder validates as a corpus: the ambiguity list is passed over, not read as items.
        let validate = await runCommand(["corpus", "validate", folder.path])
        #expect(validate.status == .success && validate.stdout == "ok: 2 items in 1 file(s)\n", "\(validate.stdout)\(validate.stderr)")
    }

    @Test(arguments: [
        (["uk=/x.ftl"], 64, "error: --out FILE is required"),
        (["--out", "o.tsv", "xx-nope=/x.ftl"], 64, "error: input 'xx-nope=/x.ftl': unknown language 'xx-nope'"),
        (["--out", "o.tsv", "/x.ftl"], 64, "error: input '/x.ftl': give its language as LANG=PATH"),
        (["--out", "o.tsv", "--corpus-tag", "out side", "uk=/x.ftl"], 64, "error: --corpus-tag must be letters, digits or '-', not 'out side'"),
        (["--out", "o.tsv", "uk=/nonexistent/x.ftl"], 65, "error: /nonexistent/x.ftl: cannot read (no such file or directory)"),
        (["--out", "o.tsv", "uk=/etc/hostname"], 65, "error: /etc/hostname: not a localisation file"),
    ] as [([String], Int32, String)])
    func badInputExitsWithItsCodeNamingIt(arguments: [String], status: Int32, message: String) async {
        let result = await runCommand(["corpus", "import"] + arguments)
        #expect(result.status.rawValue == status)
        #expect(result.stderr.hasPrefix(message), "\(result.stderr)")
    }
}
