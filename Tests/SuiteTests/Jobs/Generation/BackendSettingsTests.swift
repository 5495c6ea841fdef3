@testable import Support
import Foundation
@testable import Generation
import GenerationTestSupport
@testable import Suite
import Backend
import Testing

/// The profile's `backend` section: additive (old profiles decode unchanged), strict (unknown keys refused),
/// and what decides the API a run speaks.
struct BackendSettingsTests {
    @Test func aProfileWithoutTheSectionDecodesToTheNativeAPI() throws {
        let profile = try ModelProfile.load(PipelineFixture.repository.appendingPathComponent(ModelProfile.defaultResource).path)
        #expect(profile.backend == BackendSettings())
        #expect(try StrictJSON.decode(BackendSettings.self, from: Data("{}".utf8), path: "b") == BackendSettings())
    }

    @Test func theSectionDecodes() throws {
        let data = try PipelineFixture.profile(setting: ["backend"], to: #"{"api": "openai-chat", "model": "gemma", "api_key_env": "MY_KEY", "llama_sampling": false, "rate_limit_retries": 5}"#)
        let profile = try StrictJSON.decodeEverySection(ModelProfile.self, from: data, path: "p.json")
        #expect(profile.backend == BackendSettings(api: .openAIChat, model: "gemma", apiKeyEnv: "MY_KEY", llamaSampling: false, rateLimitRetries: 5))
    }

    @Test(arguments: [
        (#"{"api_key": "sk-123"}"#, "unknown key"),
        (#"{"api": "grpc"}"#, "grpc"),
        (#"{"rate_limit_retries": 50}"#, "p.json (backend.rate_limit_retries): must be in 0...10, not 50"),
    ])
    func badSectionsAreRefused(section: String, message: String) throws {
        let data = try PipelineFixture.profile(setting: ["backend"], to: section)
        #expect {
            try StrictJSON.decodeEverySection(ModelProfile.self, from: data, path: "p.json")
        } throws: { error in
            "\(error)".contains(message) && !"\(error)".contains("sk-123") || message == "unknown key" && "\(error)".contains("api_key")
        }
    }

    @Test(arguments: [
        ("http://127.0.0.1:8080", BackendSettings.API.llama, BackendSettings.API.llama),
        ("http://127.0.0.1:8080/v1", .llama, .openAICompletions),
        ("https://api.example.com/v1/", .llama, .openAICompletions),
        ("http://127.0.0.1:8080/v1", .openAIChat, .openAIChat),
        ("http://127.0.0.1:8080", .openAICompletions, .openAICompletions),
    ])
    func theAPIComesFromTheProfileElseFromAV1URL(url: String, profileAPI: BackendSettings.API, expected: BackendSettings.API) throws {
        var profile = try PipelineFixture.profile()
        profile.backend.api = profileAPI
        #expect(ServerSource.api(profile: profile, url: URL(string: url)!) == expected)
    }

    @Test func theKeyComesFromTheNamedVariableAndTheFlagWins() throws {
        var profile = try PipelineFixture.profile()
        profile.backend.apiKeyEnv = "PROFILE_KEY"
        let url = URL(string: "http://h/v1")!
        let environment = ["PROFILE_KEY": "from-profile", "FLAG_KEY": "from-flag"]
        let fromProfile = try #require(ServerSource().openAIEndpoint(profile: profile, url: url, environment: environment))
        #expect(fromProfile.key == APIKey("from-profile") && fromProfile.keyVariable == "PROFILE_KEY")
        let fromFlag = try #require(ServerSource(apiKeyEnv: "FLAG_KEY").openAIEndpoint(profile: profile, url: url, environment: environment))
        #expect(fromFlag.key == APIKey("from-flag") && fromFlag.keyVariable == "FLAG_KEY")
        #expect(ServerSource().openAIEndpoint(profile: profile, url: URL(string: "http://h:1")!, environment: environment) == nil)
    }

    /// A started server speaks the native API; an OpenAI API needs --server-url, said before anything starts.
    @Test func anOpenAIProfileWithoutAServerURLIsRefused() async throws {
        var profile = try PipelineFixture.profile()
        profile.backend.api = .openAICompletions
        await #expect {
            _ = try await ServerSource().open(profile: profile, slots: 1, runDirectory: FileManager.default.temporaryDirectory, environment: [:])
        } throws: { error in
            "\(error)".contains("--server-url")
        }
    }
}

/// A 429 that outlasts the client's retries falls back with its own reason. (A fake backend: the
/// client's retries are tested against a loopback stub in LlamaBackendTests; llama-server never rate-limits.)
struct RateLimitFallbackTests {
    struct RateLimited: TextCompleting {
        func complete(_ request: CompletionRequest) async throws -> Completion {
            throw BackendError.rateLimited(url: "http://127.0.0.1:1/v1/completions", attempts: 4)
        }
    }

    @Test func rateLimitingIsAFallbackReasonOfItsOwn() async throws {
        let pipeline = try PipelineFixture.pipeline(backend: RateLimited(), detector: FixedDetector(lang: "en"))
        let output = try await PipelineFixture.reply(pipeline, PipelineFixture.item("en-1", "en", "Hi there"), .direct)
        #expect(output.record.fallbackReason == .rateLimited)
        #expect(output.record.fallbackReason?.rawValue == "rate-limited")
    }
}

/// A server that reports no token counts (an OpenAI-compatible one without `usage`): the record's counts
/// are unknown, TPOT and ms per token stay empty, and the items table shows empty cells, never 0.
/// (A fake backend: llama-server always reports usage; the client's side is `OpenAIStubTests`.)
struct UnknownTokenCountTests {
    struct NoUsage: TextCompleting {
        func complete(_ request: CompletionRequest) async throws -> Completion {
            Completion(content: " Hello there, friend.", stopType: .stop, stoppingWord: "", truncated: false, tokensPredicted: nil, tokensEvaluated: nil,
                       server: nil, client: ClientTimings(wallMs: 40, headersMs: 5, timeToFirstTokenMs: 10, firstTokenEventMs: 10, lastTokenEventMs: 38,
                                                          tokenEvents: 5), settings: nil)
        }
    }

    @Test func unknownCountsStayUnknownIntoTheReport() async throws {
        let pipeline = try PipelineFixture.pipeline(backend: NoUsage(), detector: FixedDetector(lang: "en"))
        let record = try await PipelineFixture.reply(pipeline, PipelineFixture.item("en-1", "en", "Hi there"), .direct).record
        #expect(record.outcome == .model)
        #expect(record.promptTokens == nil && record.completionTokens == nil && record.msPerToken == nil && record.tpotMs == nil)
        let stage = try #require(record.generate)
        #expect(stage.completionTokens == nil && stage.promptProcessed == nil && stage.ttftMs == 10 && !stage.isCold)
        let report = GenerationReport(records: [record], settings: GenerationFixtures.settings, warmupRuns: 0, provenance: GenerationFixtures.provenance("x"))
        let table = report.itemsTable
        let row = try #require(table.rows.first)
        for column in ["generate_completion_tokens", "generate_prompt_n", "prompt_tokens", "completion_tokens", "tpot_ms"] {
            let index = try #require(table.columns.firstIndex { $0.name == column }, "\(column)")
            #expect(row[index] == .empty, "\(column)")
        }
    }
}
