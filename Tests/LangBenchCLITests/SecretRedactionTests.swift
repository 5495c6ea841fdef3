import Foundation
@testable import Generation
@testable import LangBenchCLI
import Provenance
import TestSupport
import Testing

/// No secret in any artifact, wherever it comes from: a server URL's user-info or query, a key a server
/// reflects into its text (a loopback stub: llama-server never echoes headers), a key pasted where a profile
/// names the variable. Each test greps every file the run wrote and its stderr for the secret.
struct SecretRedactionTests {
    static let keyVariable = "LANGBENCH_TEST_REFLECTED_KEY"
    static let key = "sk-test-reflected-8f3a61c2d94b"

    /// A completion stream in the shape of `api`: `text` chunks for `/v1/completions`, `delta.content` for chat.
    static func stream(_ pieces: [String], chat: Bool) -> String {
        guard chat else { return MisbehavingServerTests.stream(pieces) }
        var out = ""
        for (index, piece) in pieces.enumerated() {
            let text = String(decoding: try! JSONEncoder().encode(piece), as: UTF8.self)
            let finish = index == pieces.count - 1 ? #""stop""# : "null"
            out += "data: {\"choices\":[{\"delta\":{\"content\":\(text)},\"index\":0,\"finish_reason\":\(finish)}]}\n\n"
        }
        return out + "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":5,\"completion_tokens\":3,\"total_tokens\":8}}\n\ndata: [DONE]\n\n"
    }

    @Test func aServerURLsUserInfoAndQueryAreInNoOutput() async throws {
        let stub = try MisbehavingServerTests.stub(completion: MisbehavingServerTests.stream(["Hello", " there."]))
        defer { stub.stop() }
        let directory = try Fixture.temporaryDirectory()
        let port = stub.url.port!
        let out = directory.appendingPathComponent("gen").path
        let url = "http://admin:pw-userinfo-5c1e9@127.0.0.1:\(port)/v1?api_key=query-key-77d0a4"
        let result = await runCommand(["generate", "--corpus", try CommandFixtures.chatCorpus(in: directory), "--profile", CommandFixtures.profile,
                                       "--route", "direct", "--warmup", "0", "--server-url", url, "--out", out, "--quiet"])
        #expect(result.status == .success, "\(result.stderr)")
        let written = try MisbehavingServerTests.everyOutput(out) + result.stdout + result.stderr
        for secret in ["pw-userinfo-5c1e9", "query-key-77d0a4", "admin:"] { #expect(!written.contains(secret), "\(secret) was written") }
        let report = try GenerationOutput.read(out)
        #expect(report.provenance.command.contains("http://127.0.0.1:\(port)/v1"), "\(report.provenance.command)")

        // The error path: a dead port behind the same credentials names the URL without them.
        let dead = await runCommand(["generate", "--corpus", try CommandFixtures.chatCorpus(in: directory), "--profile", CommandFixtures.profile,
                                     "--route", "direct", "--server-url", "http://admin:pw-userinfo-5c1e9@127.0.0.1:1/v1?api_key=query-key-77d0a4",
                                     "--out", directory.appendingPathComponent("dead").path, "--quiet"])
        #expect(dead.status == .unavailable, "\(dead.stderr)")
        #expect(dead.stderr.contains("127.0.0.1:1"), "\(dead.stderr)")
        for secret in ["pw-userinfo-5c1e9", "query-key-77d0a4"] { #expect(!dead.stderr.contains(secret)) }
    }

    /// A proxy that reflects the Authorization header into the reply text, on both OpenAI endpoints: the key is
    /// redacted before anything is written, the record says so, and the run still counts the reply.
    @Test(arguments: [false, true])
    func aKeyReflectedIntoTheReplyIsRedactedAndMarked(chat: Bool) async throws {
        let stub = try MisbehavingServerTests.stub(completion: Self.stream(["Your header was Bearer ", Self.key, " — hello."], chat: chat))
        defer { stub.stop() }
        let directory = try Fixture.temporaryDirectory()
        let profile = try CommandFixtures.profile(backend: ["api": chat ? "openai-chat" : "openai-completions", "api_key_env": Self.keyVariable], in: directory)
        var environment = ProcessInfo.processInfo.environment
        environment[Self.keyVariable] = Self.key
        let (result, out) = try await MisbehavingServerTests.generate(stub, in: directory, environment: environment, profile: profile)
        #expect(result.status == .success, "\(result.stderr)")
        let written = try MisbehavingServerTests.everyOutput(out) + result.stdout + result.stderr
        #expect(!written.contains(Self.key))
        let report = try GenerationOutput.read(out)
        #expect(report.records.allSatisfy { $0.secretRedacted == true } && report.secretsRedacted == 2)
        let replies = try GenerationStore.replies(in: URL(fileURLWithPath: out)).filter { $0.outcome == .model }
        #expect(!replies.isEmpty && replies.allSatisfy { $0.reply.contains("<redacted>") }, "\(replies.map(\.reply))")
    }

    /// A key pasted where the profile names the variable: refused (65) naming the key path, never echoing the value.
    @Test(arguments: ["sk-proj-AbC123dEf456", "q8RzT2mW9xLk4VbN7pYs3Hd6", "OPENAI API KEY"])
    func aProfileKeyVariableThatIsAKeyIsRefusedUnechoed(value: String) async throws {
        let directory = try Fixture.temporaryDirectory()
        let profile = try CommandFixtures.profile(backend: ["api": "openai-completions", "api_key_env": value], in: directory)
        let result = await runCommand(["generate", "--corpus", try CommandFixtures.chatCorpus(in: directory), "--profile", profile,
                                       "--server-url", "http://127.0.0.1:1/v1", "--out", directory.appendingPathComponent("gen").path, "--quiet"])
        #expect(result.status == .dataError, "\(result.stderr)")
        #expect(result.stderr.contains("api_key_env") && result.stderr.contains("must name an environment variable"), "\(result.stderr)")
        #expect(!result.stderr.contains(value))
    }
}
