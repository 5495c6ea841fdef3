import Foundation
@testable import Generation
import Suite
@testable import LangBenchCLI
import Backend
import TestSupport
import Testing

/// `generate` and `doctor` against llama-server's own OpenAI-compatible API (`--server-url …/v1`), the
/// server started with `--api-key` as a hosted endpoint would be.
@Suite(.serialized)
struct OpenAICommandTests {
    static let key = "lb-secret-3f9c2e71d0"
    static let variable = "LB_TEST_OPENAI_KEY"

    /// A llama-server requiring `key`, stopped by the caller.
    static func keyedServer() async throws -> LlamaServer {
        let paths = BackendPaths.resolve(environment: ProcessInfo.processInfo.environment)
        let configuration = ServerConfiguration(binary: paths.server, model: paths.model, contextSize: 2048, threads: 2, parallelSlots: 1,
                                                swaFull: true, startupTimeout: 60, extraArguments: ["--api-key", key])
        return try await LlamaServer.launch(configuration, runDirectory: try Fixture.temporaryDirectory())
    }

    static func environment(key: String?) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment[variable] = key
        return environment
    }

    /// Every file a run wrote, read whole (reports, logs, diagnostics, replies).
    static func everyFile(under directory: String) throws -> [(String, String)] {
        let root = URL(fileURLWithPath: directory)
        let files = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
        return try files.filter { !$0.hasDirectoryPath }.map { ($0.path, String(decoding: try Data(contentsOf: $0), as: UTF8.self)) }
    }

    /// A pool of two `/v1` URLs (the one keyed server twice), then `merge` of its output: the key is in no
    /// file either writes, nor on stdout or stderr; the pool's servers, uncalibrated, are not pooled.
    @Test(.needs(.server)) func generateThroughTheV1URLWithAKeyWritesTheKeyNowhere() async throws {
        // A pool of two keyed servers (one server given twice is refused: it is not a pool).
        let server = try await Self.keyedServer()
        defer { server.stop() }
        let second = try await Self.keyedServer()
        defer { second.stop() }
        let directory = try Fixture.temporaryDirectory()
        let corpus = try CommandFixtures.chatCorpus(in: directory)
        let out = directory.appendingPathComponent("gen").path, merged = directory.appendingPathComponent("merged").path
        let result = await runCommand(["generate", "--corpus", corpus, "--route", "both", "--warmup", "0", "--seed", "5", "--profile", CommandFixtures.profile,
                                       "--server-url", "\(server.baseURL.absoluteString)/v1", "--server-url", "\(second.baseURL.absoluteString)/v1",
                                       "--api-key-env", Self.variable, "--out", out],
                                      environment: Self.environment(key: Self.key))
        #expect(result.status == .success, "\(result.stderr)")
        let report = try GenerationOutput.read(out)
        #expect(report.settings.server["api"] == "openai-completions")
        #expect(report.settings.server["api_key_env"] == Self.variable && report.settings.server["api_key"] == "set")
        #expect(report.records.count == 4)
        #expect(Set(report.records.compactMap(\.server)) == ["server-1", "server-2"])
        #expect(report.pool?.pooled == false && report.pool?.uncalibrated == ["server-1", "server-2"])
        // llama-server reports usage on its OpenAI endpoints: the counts are known.
        #expect(report.records.contains { $0.generate?.completionTokens != nil && $0.generate?.ttftMs != nil })
        let merge = await runCommand(["merge", out, "--out", merged], environment: Self.environment(key: Self.key))
        #expect(merge.status == .success, "\(merge.stderr)")
        let files = try Self.everyFile(under: out) + Self.everyFile(under: merged)
        #expect(files.count >= 10)
        for (path, text) in files + [("stdout", result.stdout), ("stderr", result.stderr), ("merge stdout", merge.stdout), ("merge stderr", merge.stderr)] {
            #expect(!text.contains(Self.key), "the key is in \(path)")
        }
    }

    /// The same items, greedy, through a started server's native API and through llama-server's `/v1`:
    /// the same replies, item by item and route by route.
    @Test(.needs(.server)) func theNativeAndTheOpenAIPathGiveTheSameGreedyReplies() async throws {
        let directory = try Fixture.temporaryDirectory()
        var profile = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: CommandFixtures.profile))) as! [String: Any]
        for section in ["sampling", "translation_sampling"] {
            guard var sampling = profile[section] as? [String: Any] else { continue }
            sampling["temperature"] = 0
            sampling["top_k"] = 1
            profile[section] = sampling
        }
        let profilePath = directory.appendingPathComponent("greedy.json")
        try JSONSerialization.data(withJSONObject: profile).write(to: profilePath)
        let corpus = try CommandFixtures.chatCorpus(in: directory)
        let common = ["generate", "--corpus", corpus, "--route", "both", "--warmup", "0", "--seed", "5", "--profile", profilePath.path, "--quiet"]
        let nativeOut = directory.appendingPathComponent("native").path
        let native = await runCommand(common + ["--out", nativeOut])
        try #require(native.status == .success, "\(native.stderr)")

        let server = try await Self.keyedServer()
        defer { server.stop() }
        let openAIOut = directory.appendingPathComponent("openai").path
        let openAI = await runCommand(common + ["--out", openAIOut, "--server-url", "\(server.baseURL.absoluteString)/v1", "--api-key-env", Self.variable],
                                      environment: Self.environment(key: Self.key))
        try #require(openAI.status == .success, "\(openAI.stderr)")

        func replies(_ out: String) throws -> [String: String] {
            let text = try String(contentsOfFile: URL(fileURLWithPath: out).appendingPathComponent(GenerationOutput.repliesFile).path, encoding: .utf8)
            let records = try text.split(separator: "\n").map { try JSONDecoder().decode(ReplyRecord.self, from: Data($0.utf8)) }
            return Dictionary(uniqueKeysWithValues: records.map { ("\($0.itemID) \($0.route.rawValue)", "\($0.outcome.rawValue): \($0.reply)") })
        }
        let viaNative = try replies(nativeOut), viaOpenAI = try replies(openAIOut)
        #expect(viaNative.count == 4)
        #expect(viaOpenAI == viaNative)
        // Also what the model produced on the way (a reply may still fall back, e.g. in the wrong language).
        func produced(_ out: String) throws -> [String: String] {
            Dictionary(uniqueKeysWithValues: try GenerationOutput.read(out).records.map { record in
                ("\(record.itemID) \(record.route.rawValue)",
                 "\(record.generate?.completionTokens ?? -1) \(record.generate?.promptTokens ?? -1) \(record.replyLang ?? "-") \(record.fallbackReason?.rawValue ?? "-")")
            })
        }
        #expect(try produced(openAIOut) == produced(nativeOut))
        #expect(try GenerationOutput.read(nativeOut).records.contains { ($0.generate?.completionTokens ?? 0) > 0 })
        #expect(try GenerationOutput.read(openAIOut).settings.server["api"] == "openai-completions")
    }

    /// `/v1/chat/completions` through `generate`: the prompt goes as a message, the server applies its chat
    /// template (chatml for our base model), and the run records replies, usage and the API it used.
    @Test(.needs(.server)) func generateThroughTheChatEndpoint() async throws {
        let server = try await Self.keyedServer()
        defer { server.stop() }
        let directory = try Fixture.temporaryDirectory()
        let profilePath = try CommandFixtures.profile(backend: ["api": "openai-chat", "api_key_env": Self.variable], in: directory)
        let out = directory.appendingPathComponent("gen").path
        let result = await runCommand(["generate", "--corpus", try CommandFixtures.chatCorpus(in: directory), "--route", "direct", "--warmup", "0",
                                       "--seed", "5", "--profile", profilePath, "--server-url", "\(server.baseURL.absoluteString)/v1",
                                       "--out", out, "--quiet"], environment: Self.environment(key: Self.key))
        #expect(result.status == .success, "\(result.stderr)")
        let report = try GenerationOutput.read(out)
        #expect(report.settings.server["api"] == "openai-chat")
        #expect(report.records.count == 2)
        #expect(report.records.allSatisfy { $0.generate?.promptTokens != nil }, "usage on every request")
        #expect(report.records.contains { $0.generate?.ttftMs != nil })
    }

    @Test(.needs(.server), arguments: [nil, "lb-wrong-key"])
    func aMissingOrWrongKeyExits69NamingTheVariable(key: String?) async throws {
        let server = try await Self.keyedServer()
        defer { server.stop() }
        let directory = try Fixture.temporaryDirectory()
        let result = await runCommand(["generate", "--corpus", try CommandFixtures.chatCorpus(in: directory), "--profile", CommandFixtures.profile,
                                       "--server-url", "\(server.baseURL.absoluteString)/v1", "--api-key-env", Self.variable,
                                       "--out", directory.appendingPathComponent("gen").path, "--quiet"],
                                      environment: Self.environment(key: key))
        #expect(result.status == .unavailable)
        #expect(result.stderr.hasPrefix("error: unauthorized: set \(Self.variable) "), "\(result.stderr)")
        #expect(!result.stderr.contains(Self.key) && !result.stderr.contains("lb-wrong-key"))
    }

    @Test(.needs(.server)) func anUnknownModelExits69ListingTheServersModels() async throws {
        let server = try await Self.keyedServer()
        defer { server.stop() }
        let directory = try Fixture.temporaryDirectory()
        let profilePath = try CommandFixtures.profile(backend: ["model": "no-such-model", "api_key_env": Self.variable], in: directory)
        let result = await runCommand(["generate", "--corpus", try CommandFixtures.chatCorpus(in: directory), "--profile", profilePath,
                                       "--server-url", "\(server.baseURL.absoluteString)/v1", "--out", directory.appendingPathComponent("gen").path, "--quiet"],
                                      environment: Self.environment(key: Self.key))
        #expect(result.status == .unavailable)
        #expect(result.stderr.contains("has no model 'no-such-model'; it serves "), "\(result.stderr)")
    }

    /// The native root with `/v1` put in the wrong place: llama-server answers 404, named with the URL and endpoint.
    @Test(.needs(.server)) func aURLThatIsNotAnOpenAIServerExits69NamingTheEndpoint() async throws {
        let server = try await Self.keyedServer()
        defer { server.stop() }
        let directory = try Fixture.temporaryDirectory()
        let url = "\(server.baseURL.absoluteString)/completion/v1"
        let result = await runCommand(["generate", "--corpus", try CommandFixtures.chatCorpus(in: directory), "--profile", CommandFixtures.profile,
                                       "--server-url", url, "--api-key-env", Self.variable, "--out", directory.appendingPathComponent("gen").path, "--quiet"],
                                      environment: Self.environment(key: Self.key))
        #expect(result.status == .unavailable)
        #expect(result.stderr.hasPrefix("error: \(url)/models does not serve the OpenAI-compatible /completion/v1/models (HTTP 404)"), "\(result.stderr)")
    }

    @Test(.needs(.server)) func doctorChecksTheEndpointTheModelAndOneRequest() async throws {
        let server = try await Self.keyedServer()
        defer { server.stop() }
        let result = await runCommand(["doctor", "--profile", CommandFixtures.profile, "--server-url", "\(server.baseURL.absoluteString)/v1",
                                       "--api-key-env", Self.variable], environment: Self.environment(key: Self.key))
        #expect(result.status == .success, "\(result.stdout)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("ok    endpoint") })
        #expect(lines.contains { $0.hasPrefix("ok    model") })
        #expect(lines.contains { $0.hasPrefix("ok    request") && $0.contains("usage reported, llama.cpp timings; key from \(Self.variable)") }, "\(result.stdout)")
        #expect(!result.stdout.contains(Self.key))

        let refused = await runCommand(["doctor", "--profile", CommandFixtures.profile, "--server-url", "\(server.baseURL.absoluteString)/v1",
                                        "--api-key-env", Self.variable], environment: Self.environment(key: nil))
        #expect(refused.status == .unavailable)
        #expect(refused.stdout.contains("unauthorized: set \(Self.variable)"), "\(refused.stdout)")
    }

    @Test func aKeyGivenForTheVariableNameIsAUsageErrorThatDoesNotEchoIt() async {
        let result = await runCommand(["generate", "--corpus", "x.tsv", "--api-key-env", "sk-abc/def+123"], environment: [:])
        #expect(result.status == .usage)
        #expect(result.stderr.hasPrefix("error: --api-key-env takes the name of an environment variable"))
        #expect(!result.stderr.contains("sk-abc/def+123"))
    }

    /// A keyed llama-server attached through its native URL gets no key (keys go only to `/v1`): the run stops saying so.
    @Test(.needs(.server)) func aNativeURLToAKeyedServerSaysWhereKeysGo() async throws {
        let server = try await Self.keyedServer()
        defer { server.stop() }
        let directory = try Fixture.temporaryDirectory()
        let result = await runCommand(["generate", "--corpus", try CommandFixtures.chatCorpus(in: directory), "--route", "direct", "--warmup", "0",
                                       "--profile", CommandFixtures.profile, "--server-url", server.baseURL.absoluteString,
                                       "--out", directory.appendingPathComponent("gen").path, "--quiet"],
                                      environment: Self.environment(key: Self.key))
        #expect(result.status == .unavailable, "\(result.stderr)")
        #expect(result.stderr.contains("401") && result.stderr.contains("LangBench sends an API key only to an OpenAI-compatible URL"), "\(result.stderr)")
        #expect(!result.stderr.contains(Self.key))
    }
}
