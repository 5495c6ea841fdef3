import Foundation
@testable import Generation
@testable import LangBenchCLI
import TestSupport
import Testing

/// `generate` against OpenAI-compatible servers that misbehave in ways llama-server cannot be made to on
/// demand — a stream sent in one burst, text past the stop string, the key reflected into the text, counts no
/// request can have, an error event inside a 200 stream, a model list of 20,000 names — from a loopback stub.
struct MisbehavingServerTests {
    static let json = "application/json"
    static let models = #"{"object":"list","data":[{"id":"stub-model","object":"model"}]}"#

    /// An event stream of `pieces` as one completion each, then `usage` (when given) and `[DONE]`, all in one write.
    static func stream(_ pieces: [String], usage: String? = #"{"prompt_tokens":5,"completion_tokens":3,"total_tokens":8}"#) -> String {
        var out = ""
        for (index, piece) in pieces.enumerated() {
            let text = String(decoding: try! JSONEncoder().encode(piece), as: UTF8.self)
            let finish = index == pieces.count - 1 ? #""stop""# : "null"
            out += "data: {\"choices\":[{\"text\":\(text),\"index\":0,\"finish_reason\":\(finish)}]}\n\n"
        }
        if let usage { out += "data: {\"choices\":[],\"usage\":\(usage)}\n\n" }
        return out + "data: [DONE]\n\n"
    }

    /// A stub serving one model and answering every completion with `body` (one write, no pause).
    static func stub(completion body: String, models: String = models) throws -> LoopbackStub {
        try LoopbackStub(pieces: [LoopbackStub.head(status: "200 OK"), body], routes: [
            "/v1/models": [[LoopbackStub.head(status: "200 OK", contentType: json), models]],
        ])
    }

    static func generate(_ stub: LoopbackStub, in directory: URL, extra: [String] = [], environment: [String: String] = ProcessInfo.processInfo.environment,
                         profile: String = CommandFixtures.profile) async throws -> (CommandResult, String) {
        let out = directory.appendingPathComponent("gen").path
        let result = await runCommand(["generate", "--corpus", try CommandFixtures.chatCorpus(in: directory), "--profile", profile, "--route", "direct",
                                       "--warmup", "0", "--server-url", "\(stub.url.absoluteString)/v1", "--out", out, "--quiet"] + extra,
                                      environment: environment)
        return (result, out)
    }

    /// Every file `directory` holds, read whole, as one text to search for what must not be there.
    static func everyOutput(_ directory: String) throws -> String {
        try OpenAICommandTests.everyFile(under: directory).map(\.1).joined(separator: "\n")
    }

    /// A buffering proxy sends each stream in one burst (TPOT 0 on the client's clock). With variants, the variant
    /// checks divided by that zero and the report could not be encoded (exit 70 after every item was recorded).
    @Test func aStreamSentInOneBurstFinishesAVariantsRun() async throws {
        let stub = try Self.stub(completion: Self.stream(["Hello", " there", " friend."]))
        defer { stub.stop() }
        let directory = try Fixture.temporaryDirectory()
        let variants = directory.appendingPathComponent("variants.json")
        try #"{"variants": [{"name": "a"}, {"name": "b", "description": "the same prompts again"}]}"#.write(to: variants, atomically: true, encoding: .utf8)
        let (result, out) = try await Self.generate(stub, in: directory, extra: ["--variants", variants.path])
        #expect(result.status == .success, "\(result.stderr)")
        let report = try GenerationOutput.read(out)
        #expect(report.records.count == 4)
        #expect(CommandFixtures.exists(out, GenerationOutput.jsonFile) && CommandFixtures.exists(out, GenerationOutput.markdownFile))
    }

    /// A server that ignores `stop: ["\n"]` runs on into the next turn: the reply is cut at the stop string, the
    /// record says the server ignored `stop`, and the report counts it per server.
    @Test func aReplyPastItsStopStringIsCutAndMarked() async throws {
        let stub = try Self.stub(completion: Self.stream(["That sounds lovely.", "\nUser: tell me more", "\nCompanion: sure"]))
        defer { stub.stop() }
        let directory = try Fixture.temporaryDirectory()
        let (result, out) = try await Self.generate(stub, in: directory)
        #expect(result.status == .success, "\(result.stderr)")
        let report = try GenerationOutput.read(out)
        #expect(report.records.allSatisfy { $0.ignoredStop == true })
        #expect(report.ignoredStop == ["server": 2])
        // The English item's reply is the model's (the Russian one is in the wrong language: a fallback).
        let replies = try GenerationStore.replies(in: URL(fileURLWithPath: out)).filter { $0.outcome == .model }
        #expect(!replies.isEmpty && replies.allSatisfy { $0.reply == "That sounds lovely." }, "\(replies.map(\.reply))")
        let markdown = try String(contentsOfFile: out + "/" + GenerationOutput.markdownFile, encoding: .utf8)
        #expect(markdown.contains("The server ignored `stop` in 2 record(s) (server 2)"))
        #expect(try String(contentsOfFile: out + "/generation-items.csv", encoding: .utf8).contains("ignored_stop"))
    }

    /// `usage.completion_tokens` of 10¹² for a three-word reply asked for at most `n_predict` tokens: the count is
    /// left unknown and the record marked, never averaged in.
    @Test func aTokenCountNoRequestCanHaveIsLeftUnknown() async throws {
        let stub = try Self.stub(completion: Self.stream(["Hello", " there", " friend."],
                                                         usage: #"{"prompt_tokens":5,"completion_tokens":1000000000000,"total_tokens":1000000000005}"#))
        defer { stub.stop() }
        let directory = try Fixture.temporaryDirectory()
        let (result, out) = try await Self.generate(stub, in: directory)
        #expect(result.status == .success, "\(result.stderr)")
        let report = try GenerationOutput.read(out)
        #expect(report.records.allSatisfy { $0.invalidCounts == true && $0.completionTokens == nil && $0.promptTokens == 5 })
        #expect(report.invalidCounts == 2)
        #expect(!(try Self.everyOutput(out)).contains("1000000000000"))
    }

    /// An error event inside a stream the server began with HTTP 200: the record's message says so, with the
    /// event's own code, instead of an invented "HTTP 500".
    @Test func anErrorEventInsideA200StreamIsNamedAsSuch() async throws {
        let event = "data: {\"error\":{\"code\":503,\"message\":\"backend overloaded\",\"type\":\"server_error\"}}\n\n"
        // The one-token check at the start is answered; every completion after it is the error event.
        let stub = try LoopbackStub(pieces: [LoopbackStub.head(status: "200 OK"), event], routes: [
            "/v1/models": [[LoopbackStub.head(status: "200 OK", contentType: Self.json), Self.models]],
            "/v1/completions": [[LoopbackStub.head(status: "200 OK"), Self.stream(["Hi"])], [LoopbackStub.head(status: "200 OK"), event]],
        ])
        defer { stub.stop() }
        let directory = try Fixture.temporaryDirectory()
        let (result, out) = try await Self.generate(stub, in: directory)
        #expect(result.status == .success, "\(result.stderr)")
        let records = try GenerationOutput.read(out).records
        #expect(records.allSatisfy { $0.fallbackReason == .generationError }, "\(records.map(\.fallbackReason))")
        let messages = records.compactMap(\.errorMessage)
        #expect(messages.count == 2 && messages.allSatisfy { $0.hasPrefix("error event 503 (server_error) in the stream from ") }, "\(messages)")
        #expect(!messages.contains { $0.contains("HTTP") })
    }

    /// A model list of 20,000 names, none of them the profile's: the error names the first ten and the count, in one short line.
    @Test func aHugeModelListIsShownByItsFirstNamesAndItsCount() async throws {
        let names = (0..<20_000).map { "{\"id\":\"model-\($0)\",\"object\":\"model\"}" }.joined(separator: ",")
        let stub = try Self.stub(completion: Self.stream(["Hi"]), models: "{\"object\":\"list\",\"data\":[\(names)]}")
        defer { stub.stop() }
        let directory = try Fixture.temporaryDirectory()
        let profile = try CommandFixtures.profile(backend: ["api": "openai-completions", "model": "absent"], in: directory)
        let (result, _) = try await Self.generate(stub, in: directory, profile: profile)
        #expect(result.status != .success)
        #expect(result.stderr.contains("it serves model-0, model-1, model-2, model-3, model-4, model-5, model-6, model-7, model-8, model-9, … (20000 models in all)"),
                "\(result.stderr.prefix(400))")
        #expect(result.stderr.count < 1_000)
    }
}
