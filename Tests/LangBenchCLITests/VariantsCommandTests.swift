@testable import Support
import Foundation
@testable import Generation
import Suite
import Backend
@testable import LangBenchCLI
import ByteIO
import TestSupport
import Testing

/// `generate --variants` through the entry point, against the real llama-server and model.
@Suite(.serialized)
struct VariantsCommandTests {
    static let shipped = CommandFixtures.path("Profiles/variants/gemma3-270m.json")

    @Test(.needs(.server)) func everyItemGoesThroughEveryVariantAndRouteBackToBackOnOneServer() async throws {
        let directory = try Fixture.temporaryDirectory()
        let out = directory.appendingPathComponent("gen").path
        let result = await runCommand(["generate", "--corpus", try CommandFixtures.chatCorpus(in: directory), "--route", "both", "--warmup", "0",
                                       "--variants", Self.shipped, "--profile", CommandFixtures.profile, "--out", out, "--quiet"])
        #expect(result.status == .success, "\(result.stderr)")
        let report = try GenerationOutput.read(out)
        let names = ["english-instructions", "native", "native-preamble"]
        #expect(report.settings.variants?.map(\.name) == names)
        #expect(report.settings.variants?.allSatisfy { $0.server == 1 } == true, "one model: one server")
        #expect(report.records.count == 2 * 3 * 2, "2 items × 3 variants × 2 routes")
        #expect(Set(report.records.map { "\($0.itemID) \($0.variant ?? "-") \($0.route.rawValue)" }).count == 12)
        #expect(report.variants?.map(\.name) == names)
        #expect(report.variants?.dropFirst().allSatisfy { !$0.versusReference.isEmpty } == true)
        // Written as measured: an item's six records are contiguous in the log (its variants ran back to back).
        let log = try JSONLinesLog<GenerationRecord>.read(URL(fileURLWithPath: out).appendingPathComponent(GenerationOutput.recordsLog), repair: false)
        let runs = zip(log, log.dropFirst()).filter { $0.itemID != $1.itemID }.count + 1
        #expect(runs == 2, "\(log.map(\.itemID))")
        let diagnostics = try JSONLinesLog<DiagnosticEvent>.read(URL(fileURLWithPath: out).appendingPathComponent(GenerationOutput.diagnosticsFile), repair: false)
        #expect(!diagnostics.isEmpty && diagnostics.allSatisfy { $0.variant.map(names.contains) == true })
        #expect(CommandFixtures.exists(out, GenerationReport.variantChartFile))
        let markdown = try String(contentsOfFile: URL(fileURLWithPath: out).appendingPathComponent(GenerationOutput.markdownFile).path, encoding: .utf8)
        #expect(markdown.contains("## Variants") && markdown.contains("| native | direct |"))
    }

    /// Other server settings need their own server: started beside the first and stopped with it.
    @Test(.needs(.server)) func otherServerSettingsGetTheirOwnServer() async throws {
        let directory = try Fixture.temporaryDirectory()
        let variants = directory.appendingPathComponent("variants.json")
        try #"{"variants": [{"name": "two-threads"}, {"name": "one-thread", "server": {"threads": 1}}]}"#
            .write(to: variants, atomically: true, encoding: .utf8)
        let out = directory.appendingPathComponent("gen").path
        let result = await runCommand(["generate", "--corpus", try CommandFixtures.chatCorpus(in: directory), "--route", "direct", "--warmup", "0",
                                       "--variants", variants.path, "--profile", CommandFixtures.profile, "--out", out, "--quiet"])
        #expect(result.status == .success, "\(result.stderr)")
        let report = try GenerationOutput.read(out)
        #expect(report.settings.variants?.map(\.server) == [1, 2])
        #expect(CommandFixtures.exists(out, "llama-server.log") && CommandFixtures.exists(out, "llama-server-2.log"))
        #expect(report.records.count == 4 && Set(report.records.compactMap(\.variant)) == ["two-threads", "one-thread"])
    }

    /// A variant whose model file is not there: exit 69 naming it, before any server has started.
    @Test(.needs(.server)) func aMissingModelStopsTheRunBeforeAnyServerStarts() async throws {
        let directory = try Fixture.temporaryDirectory()
        let variants = directory.appendingPathComponent("variants.json")
        try #"{"variants": [{"name": "base"}, {"name": "other", "model": {"file": "no-such-model.gguf"}}]}"#
            .write(to: variants, atomically: true, encoding: .utf8)
        let out = directory.appendingPathComponent("gen").path
        let result = await runCommand(["generate", "--corpus", try CommandFixtures.chatCorpus(in: directory), "--variants", variants.path,
                                       "--profile", CommandFixtures.profile, "--out", out, "--quiet"])
        #expect(result.status == .unavailable, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("error: variant 'other' (variants[1].model.file): model not found at "), "\(result.stderr)")
        #expect(result.stderr.contains("no-such-model.gguf"), "\(result.stderr)")
        #expect(!CommandFixtures.exists(out, "llama-server.log"))
    }

    /// A variants run cut after three records, and a finished one, resume: the settings fingerprint compares key by
    /// key (a variant's settings used to be compared as dictionary descriptions, whose key order changes from process
    /// to process). The resumed run ends with the replies and counts of an uninterrupted one, natively and over `/v1`.
    @Test(.needs(.server), arguments: [false, true])
    func aCutAndAFinishedVariantsRunResumeToTheUninterruptedRun(openAI: Bool) async throws {
        let directory = try Fixture.temporaryDirectory()
        let variants = directory.appendingPathComponent("variants.json")
        try #"{"variants": [{"name": "native"}, {"name": "english", "prompts": {"instructions": {"ru": null}}}]}"#
            .write(to: variants, atomically: true, encoding: .utf8)
        var extra: [String] = []
        var environment = ProcessInfo.processInfo.environment
        var server: LlamaServer?
        if openAI {
            let keyed = try await OpenAICommandTests.keyedServer()
            server = keyed
            environment = OpenAICommandTests.environment(key: OpenAICommandTests.key)
            extra = ["--server-url", keyed.baseURL.absoluteString + "/v1", "--api-key-env", OpenAICommandTests.variable]
        }
        defer { server?.stop() }
        let corpus = try CommandFixtures.chatCorpus(in: directory)
        func generate(_ out: String, resume: Bool = false) async -> CommandResult {
            await runCommand(["generate", "--corpus", corpus, "--route", "direct", "--warmup", "0", "--variants", variants.path,
                              "--profile", CommandFixtures.profile, "--out", out, "--quiet"] + extra + (resume ? ["--resume"] : []), environment: environment)
        }
        /// What a run measured, timings aside: per record key its outcome, counts and reply.
        func measured(_ out: String) throws -> [String: String] {
            let replies = Dictionary(try GenerationStore.replies(in: URL(fileURLWithPath: out)).map {
                (GenerationRecord.key(item: $0.itemID, route: $0.route, repeatIndex: $0.repeatIndex, variant: $0.variant), $0.reply)
            }, uniquingKeysWith: { a, _ in a })
            return Dictionary(uniqueKeysWithValues: try GenerationOutput.read(out).records.map {
                ($0.key, "\($0.outcome) \($0.promptTokens ?? -1) \($0.completionTokens ?? -1) \($0.servedInOwnLanguage.map(String.init) ?? "-") \(replies[$0.key] ?? "?")")
            })
        }
        let whole = directory.appendingPathComponent("whole").path, cut = directory.appendingPathComponent("cut").path
        let first = await generate(whole)
        #expect(first.status == .success, "\(first.stderr)")
        let expected = try measured(whole)
        #expect(expected.count == 4)

        let again = await generate(whole, resume: true)
        #expect(again.status == .success, "a finished variants run resumes: \(again.stderr)")
        #expect(try measured(whole) == expected)

        // What a stop leaves: the first three records and their lines, no report.
        #expect(await generate(cut).status == .success)
        let log = URL(fileURLWithPath: cut).appendingPathComponent(GenerationOutput.recordsLog)
        let lines = try String(contentsOf: log, encoding: .utf8).split(separator: "\n")
        try (lines.prefix(3).joined(separator: "\n") + "\n").write(to: log, atomically: true, encoding: .utf8)
        let resumed = await generate(cut, resume: true)
        #expect(resumed.status == .success, "\(resumed.stderr)")
        let records = try GenerationOutput.read(cut).records
        #expect(records.count == 4)
        let measuredCut = try measured(cut)
        for (key, value) in expected { #expect(measuredCut[key] == value, "\(key)") }
    }

    @Test func aBadVariantsFileNamesTheKey() async throws {
        let directory = try Fixture.temporaryDirectory()
        let variants = directory.appendingPathComponent("variants.json")
        try #"{"variants": [{"name": "a", "prompts": {"instructons": {}}}]}"#.write(to: variants, atomically: true, encoding: .utf8)
        let result = await runCommand(["generate", "--corpus", try CommandFixtures.chatCorpus(in: directory), "--variants", variants.path,
                                       "--profile", CommandFixtures.profile, "--out", directory.appendingPathComponent("gen").path, "--quiet"])
        #expect(result.status == .dataError)
        #expect(result.stderr.contains("variants[0].prompts.instructons: unknown key"), "\(result.stderr)")
    }
}
