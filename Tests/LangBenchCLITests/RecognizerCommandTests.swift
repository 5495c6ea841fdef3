import Foundation
import Testing
import TestSupport
@testable import LangBenchCLI

/// `identify`, `train` and `bench detector` (rendering only: timings are never asserted).
struct RecognizerCommandTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let model = root.appendingPathComponent("Models/recognizer.lbrm").path

    @Test func identifyPrintsRankedHypotheses() async {
        let result = await runCommand(["identify", "--model", Self.model, "--candidates", "ru,uk,bg", "--hints", "ru=0.5",
                                       "Привет, как дела?"])
        #expect(result.status == .success)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "Привет, как дела?")
        #expect(lines.dropFirst().map { $0.split(separator: " ").first.map(String.init) ?? "" } == ["ru", "bg", "uk"])
    }

    @Test func identifySaysUndForTextWithoutLetters() async {
        let result = await runCommand(["identify", "--model", Self.model, "--json", "123 !!"])
        #expect(result.stdout == #"{"evidence":"no-letters","hypotheses":[],"language":"und","text":"123 !!"}"# + "\n")
    }

    @Test func identifyRejectsCandidatesTheModelDoesNotKnow() async {
        let result = await runCommand(["identify", "--model", Self.model, "--candidates", "ru,fi", "тест"])
        #expect(result.status == .usage)
        #expect(result.stderr.hasPrefix("error: --candidates: the recognizer does not know fi;"))
    }

    @Test func identifyReportsAMissingModel() async {
        let result = await runCommand(["identify", "--model", "/nonexistent/model.lbrm", "тест"])
        #expect(result.status == .unavailable)
        #expect(result.stderr.contains("cannot read model /nonexistent/model.lbrm"))
    }

    @Test func trainWritesAndChecksByteForByte() async throws {
        let lists = Self.root.appendingPathComponent("Tests/RecognizerTests/Fixtures/tiny-lists").path
        let dir = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("tiny.lbrm").path
        let written = await runCommand(["train", "--lists", lists, "--out", out])
        #expect(written.status == .success)
        #expect(written.stdout.hasPrefix("wrote \(out): "))
        let same = await runCommand(["train", "--lists", lists, "--out", out, "--check"])
        #expect(same.status == .success)
        #expect(same.stdout.hasPrefix("identical: "))
        try Data("changed".utf8).write(to: URL(fileURLWithPath: out))
        let different = await runCommand(["train", "--lists", lists, "--out", out, "--check"])
        #expect(different.status == .checkFailed)
        #expect(different.stdout.hasPrefix("different: "))
    }

    @Test func trainNeedsLists() async {
        let result = await runCommand(["train"])
        #expect(result.status == .usage)
    }

    @Test func heldOutReportsTheReportHalfWithAndWithoutFittedBiases() async {
        let lists = Self.root.appendingPathComponent("Tests/RecognizerTests/Fixtures/tiny-lists").path
        let result = await runCommand(["train", "--lists", lists, "--held-out", "--candidates", "aa,bb"])
        #expect(result.status == .success)
        #expect(result.stdout.hasPrefix("measured on the report half\nfitted on the tuning half (nats): per word "))
        for row in ["known-words\tall\tnone\t", "known-words\tall\tfitted\t", "known-words\tlisted\ttrainer\t"] {
            #expect(result.stdout.contains(row), "\(row)")
        }
    }

    @Test(arguments: [
        (["--without-added-forms"], "error: --without-added-forms, --tuning-half and --candidates need --held-out"),
        (["--candidates", "aa"], "error: --without-added-forms, --tuning-half and --candidates need --held-out"),
        (["--held-out", "--candidates", "aa,zz"], "error: --candidates: no list for zz; use codes of the export's manifest"),
    ])
    func trainRefusesHeldOutOptionsItCannotUse(_ extra: [String], _ message: String) async {
        let lists = Self.root.appendingPathComponent("Tests/RecognizerTests/Fixtures/tiny-lists").path
        let result = await runCommand(["train", "--lists", lists] + extra)
        #expect(result.status == .usage)
        #expect(result.stderr.hasPrefix(message), "\(result.stderr)")
    }

    /// A model file whose λ is not a number loads no longer (it answered `und` for everything with exit 0): 65, naming it.
    @Test func aModelWhoseLambdaIsNotANumberIsRefused() async throws {
        var data = try Data(contentsOf: URL(fileURLWithPath: Self.model))
        // "LBRM", u32 version, u32 metadata length, the metadata, then λ as f32 (little-endian).
        let length = data[8..<12].enumerated().reduce(0) { $0 | Int($1.element) << (8 * $1.offset) }
        let lambda = 12 + length
        data.replaceSubrange(lambda..<(lambda + 4), with: withUnsafeBytes(of: Float.nan.bitPattern.littleEndian, Array.init))
        let copy = try Fixture.temporaryDirectory().appendingPathComponent("nan.lbrm")
        try data.write(to: copy)
        let result = await runCommand(["identify", "--model", copy.path, "привет"])
        #expect(result.status == .dataError, "\(result.stderr)")
        #expect(result.stderr.contains("parameter lambda is nan, not a finite number"), "\(result.stderr)")
    }
}
