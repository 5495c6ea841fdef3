import Foundation
import TestSupport
import Testing
@testable import LangBenchCLI

/// `doctor` and `bench backend` at the command level; the checks themselves are tested in LlamaBackendTests.
struct DoctorCommandTests {
    static let profile = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Profiles/gemma3-270m.json").standardized.path

    func run(_ arguments: [String], environment: [String: String]) async -> CommandResult {
        await runCommand(arguments, environment: environment)
    }

    @Test func nothingInstalledExits69WithTheCommandsToRun() async {
        let result = await run(["doctor", "--profile", Self.profile], environment: ["HOME": "/nonexistent-home"])
        #expect(result.status == .unavailable)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("FAIL  llama-server  not found at /nonexistent-home/") == true)
        #expect(lines.contains { $0.hasPrefix("skip  server") })
        #expect(lines.contains { $0.hasPrefix("ok    profile       gemma3-270m-q4km: ") })
        #expect(result.stdout.hasSuffix("not ready; run:\n  scripts/setup-llama\n  scripts/setup-model\n"))
    }

    @Test(.needs(.server)) func everythingReadyExits0() async throws {
        let environment = ProcessInfo.processInfo.environment
        let result = await run(["doctor", "--profile", Self.profile], environment: environment)
        #expect(result.status == .success, "\(result.stdout)")
        #expect(result.stdout.hasSuffix("ready\n"))
        #expect(!result.stdout.contains("FAIL"))
    }

    @Test(arguments: [
        (["doctor", "--server-url", "localhost:8080"],
         "error: --server-url 'localhost:8080': expected an http(s) URL such as http://127.0.0.1:8080"),
        (["generate", "--corpus", "x.tsv", "--server-url", "ftp://host"],
         "error: --server-url 'ftp://host': expected an http(s) URL such as http://127.0.0.1:8080"),
        (["bench", "backend", "--repetitions", "0"], "error: --repetitions takes a whole number in 1...100, not '0'"),
    ])
    func badOptionsAreUsageErrors(arguments: [String], message: String) async {
        let result = await run(arguments, environment: [:])
        #expect(result.status == .usage)
        #expect(result.stderr.split(separator: "\n").first.map(String.init) == message)
    }
}
