import Foundation
import Testing
import TestSupport
@testable import LangBenchCLI

/// The language-code rule in every command: `zh` means Chinese; a candidate the detector cannot produce
/// stops the run with exit 64 naming it, never a silent drop.
struct CandidateCodeTests {
    static let corpus = """
    id\tlang\ttext\ttags
    c1\tzh\t我们今天去学校\t
    c2\tzh-Hans\t谢谢你的帮助\t
    r1\tru\tДобрый вечер\t

    """

    static func writeCorpus() throws -> (dir: URL, path: String) {
        let dir = try Fixture.temporaryDirectory()
        let path = dir.appendingPathComponent("zh.tsv").path
        try Data(corpus.utf8).write(to: URL(fileURLWithPath: path))
        return (dir, path)
    }

    @Test("detect --candidates ru,zh keeps Chinese and scores its items right")
    func detectKeepsZh() async throws {
        let (dir, path) = try Self.writeCorpus()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("out").path
        let result = await runCommand(["detect", "--corpus", path, "--candidates", "ru,zh", "--recognizer-model", RecognizerCommandTests.model,
                                       "--out", out, "--quiet"])
        #expect(result.status == .success, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("custom: accuracy 100.0%"), "\(result.stdout)")
    }

    @Test("a candidate the recognizer cannot produce is a usage error in detect", arguments: ["ru,zh,fi", "ru,sr-Latn"])
    func detectRejectsUnknown(_ candidates: String) async throws {
        let (dir, path) = try Self.writeCorpus()
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = await runCommand(["detect", "--corpus", path, "--candidates", candidates, "--recognizer-model", RecognizerCommandTests.model,
                                       "--out", dir.appendingPathComponent("out").path, "--quiet"])
        let bad = candidates.split(separator: ",").last!
        #expect(result.status == .usage)
        #expect(result.stderr.hasPrefix("error: config 'custom': detector builtin cannot produce \(bad); remove it from the candidates"),
                "\(result.stderr)")
    }

    @Test("identify accepts the codes people type", arguments: [("zh", "我们", "zh-Hans"), ("zh-CN", "我们", "zh-Hans"), ("sr-Cyrl", "ђак", "sr")])
    func identifyAliases(_ code: String, _ text: String, _ modelCode: String) async {
        let result = await runCommand(["identify", "--model", RecognizerCommandTests.model, "--candidates", "ru,\(code)", "--json", text])
        #expect(result.status == .success)
        #expect(result.stdout.contains("\"language\":\"\(modelCode)\""), "\(result.stdout)")
    }
}
