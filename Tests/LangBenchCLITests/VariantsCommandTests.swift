@testable import BenchSupport
import Foundation
@testable import Generation
import LangBench
@testable import LangBenchCLI
import TestSupport
import Testing

/// `generate --variants` through the entry point, against the real llama-server and model.
@Suite(.serialized)
struct VariantsCommandTests {
    static let shipped = CommandFixtures.path("Profiles/variants/gemma3-270m.json")

    @Test func everyItemGoesThroughEveryVariantAndRouteBackToBackOnOneServer() async throws {
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
    @Test func otherServerSettingsGetTheirOwnServer() async throws {
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
    @Test func aMissingModelStopsTheRunBeforeAnyServerStarts() async throws {
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
