import Foundation
import Testing
import TestSupport
@testable import LangBenchCLI

/// Bad configuration files and unusable output paths, through the entry point: each is refused with
/// the exit code the README documents and a message naming the file and line and column, or key,
/// and what is wrong — not Foundation's "not valid JSON", "You don't have permission" or
/// "NSCocoaErrorDomain error 512".
struct ClearErrorTests {
    @Test(arguments: [
        // A decimal where an integer is expected: Foundation calls this "not valid JSON".
        (#"{"generation": {"corpora": ["c.tsv"], "repeat": 1.5}}"#, " (generation.repeat): expected an integer, found 1.5"),
        (#"{"generation": {"corpora": ["c.tsv"], "seed": 1e30}}"#,
         " (generation.seed): expected an integer from -9223372036854775808 to 9223372036854775807, found 1e30"),
        (#"{"generation": {"corpora": ["c.tsv"], "repeat": "2"}}"#, #" (generation.repeat): expected an integer, found "2""#),
        (#"{"generation": {"corpora": "c.tsv"}}"#, #" (generation.corpora): expected an array, found "c.tsv""#),
        (#"{"generation": {"corpora": ["c.tsv"], "seed": {}}}"#, " (generation.seed): expected an integer, found an object"),
        (#"{"generation": {"corpora": [1.5]}}"#, " (generation.corpora.0): expected a string, found 1.5"),
        // Syntax errors: the line and column of the first problem.
        ("{\n  \"generation\": {\"corpora\": [\"c.tsv\"],, }\n}", ":2:39: invalid JSON: expected a key in double quotes, found ','"),
        ("{\n  \"generation\": {\"corpora\": [\"c.tsv\"]}\n  \"detection\": {}\n}", ":3:3: invalid JSON: expected ',' or '}' after the value of 'generation', found '\"'"),
        ("{\"generation\": {\"repeat\": tru}}", ":1:27: invalid JSON: expected a value, found 'tru'"),
        ("{\"generation\": {\"корпус\": 1", ":1:28: invalid JSON: expected ',' or '}' after the value of 'корпус', found the end of the file"),
        ("{\"generation\": \"a\nb\"}", ":1:18: invalid JSON: a control character inside a string (write it as an escape such as \\n), found a line break"),
        ("", ":1:1: invalid JSON: empty file; expected a JSON object"),
    ])
    func aBadBenchConfigIsLocated(text: String, message: String) async throws {
        let directory = try Fixture.temporaryDirectory()
        let config = directory.appendingPathComponent("bench.json")
        try text.write(to: config, atomically: true, encoding: .utf8)
        let result = await runCommand(["run", "--config", config.path, "--out", directory.appendingPathComponent("o").path, "--quiet"])
        #expect(result.status == .dataError, "\(result.stderr)")
        #expect(result.stderr == "error: \(config.path)\(message)\n")
    }

    /// A character device is not a permission problem, even for root (who may read /dev/null).
    @Test func aDeviceGivenAsAConfigFileSaysWhatItIs() async throws {
        let directory = try Fixture.temporaryDirectory()
        let corpus = try CommandFixtures.wordCorpus(in: directory)
        let result = await runCommand(["detect", "--corpus", corpus, "--configs", "/dev/null", "--out", directory.appendingPathComponent("o").path, "--quiet"])
        #expect(result.status == .dataError)
        #expect(result.stderr == "error: /dev/null: cannot read (a character device; pass a JSON file)\n")
    }

    /// `--out` under a regular file, or a regular file itself: Foundation said "NSCocoaErrorDomain error 512".
    @Test(arguments: ["blocker/out/sub", "blocker"])
    func anOutputUnderAFileNamesTheFile(out: String) async throws {
        let directory = try Fixture.temporaryDirectory()
        let corpus = try CommandFixtures.wordCorpus(in: directory)
        let blocker = directory.appendingPathComponent("blocker")
        try "not a directory".write(to: blocker, atomically: true, encoding: .utf8)
        let result = await runCommand(["detect", "--corpus", corpus, "--out", directory.appendingPathComponent(out).path, "--quiet"])
        #expect(result.status == .unavailable)
        let created = out == "blocker" ? "blocker/detection-results.jsonl" : "blocker/out"
        #expect(result.stderr == "error: cannot create \(directory.appendingPathComponent(created).path): \(blocker.path) is not a directory; move that file away or choose another --out\n")
    }
}
