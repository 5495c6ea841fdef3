import Foundation
import Testing
@testable import Backend

extension IntegrationTests {
    /// llama-server's own OpenAI-compatible endpoints, with the real model.
    @Suite struct OpenAIServer {
        /// Greedy, fixed seed, nothing from the cache: the same replies whichever API carries the request.
        static let prompts = ["The capital of France is", "Water boils at", "Bonjour, je m'appelle", "1, 2, 3, 4,"]
        static func greedy(_ prompt: String) -> CompletionRequest {
            CompletionRequest(prompt: prompt, maxTokens: 12, temperature: 0, seed: 11, stop: ["\n"], cachePrompt: false, topK: 1, topP: 1, minP: 0)
        }

        @Test func completionsEndpointGivesTheNativeRepliesWithUsageAndTimings() async throws {
            let server = try await SharedServer.shared.get()
            let endpoint = try await OpenAIClient(endpoint: OpenAIEndpoint(baseURL: server.baseURL.appendingPathComponent("v1"))).resolve()
            #expect(endpoint.model != nil, "the server's only model is taken")
            let openAI = OpenAIClient(endpoint: endpoint)
            for prompt in Self.prompts {
                let native = try await server.client().complete(Self.greedy(prompt))
                let viaOpenAI = try await openAI.complete(Self.greedy(prompt))
                #expect(viaOpenAI.content == native.content, "\(prompt)")
                #expect(viaOpenAI.tokensPredicted == native.tokensPredicted && viaOpenAI.tokensEvaluated == native.tokensEvaluated, "\(prompt)")
                // llama-server adds its timings to the OpenAI-compatible stream too.
                let timings = try #require(viaOpenAI.server)
                #expect(timings.predictedN == native.server?.predictedN && timings.cacheN == 0)
                #expect(viaOpenAI.client.timeToFirstTokenMs != nil && viaOpenAI.settings == nil)
                #expect(viaOpenAI.stopType == (native.stopType == .limit ? .limit : .stop))
            }
        }

        /// The model is a base model without a chat template: the server is started with `--chat-template chatml`
        /// (what llama-server also falls back to), so the chat endpoint's prompt is known and its greedy reply
        /// must equal `/v1/completions` on the same prompt wrapped in chatml by hand.
        @Test func chatEndpointAppliesTheServersTemplate() async throws {
            let paths = try TestBackend.requirePaths()
            var configuration = TestBackend.configuration(paths)
            configuration.extraArguments = ["--chat-template", "chatml"]
            let server = try await LlamaServer.launch(configuration, runDirectory: TestBackend.runDirectory())
            defer { server.stop() }
            let base = server.baseURL.appendingPathComponent("v1")
            let chat = OpenAIClient(endpoint: try await OpenAIClient(endpoint: OpenAIEndpoint(baseURL: base, api: .chat)).resolve())
            let completions = OpenAIClient(endpoint: OpenAIEndpoint(baseURL: base, api: .completions, model: chat.endpoint.model))
            for prompt in Self.prompts.prefix(2) {
                var request = Self.greedy(prompt)
                request.stop = []
                let viaChat = try await chat.complete(request)
                request.prompt = "<|im_start|>user\n\(prompt)<|im_end|>\n<|im_start|>assistant\n"
                let viaCompletions = try await completions.complete(request)
                #expect(viaChat.content == viaCompletions.content, "\(prompt)")
                #expect(viaChat.tokensEvaluated == viaCompletions.tokensEvaluated && viaChat.tokensPredicted == viaCompletions.tokensPredicted)
                #expect(viaChat.server != nil && viaChat.client.timeToFirstTokenMs != nil)
            }
        }

        @Test func anUnknownModelListsTheServersModels() async throws {
            let server = try await SharedServer.shared.get()
            let base = server.baseURL.appendingPathComponent("v1")
            let available = try await OpenAIClient(endpoint: OpenAIEndpoint(baseURL: base)).models()
            #expect(!available.isEmpty)
            let error = await backendError { _ = try await OpenAIClient(endpoint: OpenAIEndpoint(baseURL: base, model: "no-such-model")).resolve() }
            #expect(error == .unknownModel(url: base.appendingPathComponent("models").absoluteString, model: "no-such-model", available: available))
            #expect(error?.description.contains(available[0]) == true)
        }

        /// The native root is not an OpenAI-compatible one: `<root>/completion/models` is a 404 from llama-server itself.
        @Test func aPathThatIsNotAnOpenAIRootIsNamed() async throws {
            let server = try await SharedServer.shared.get()
            let base = server.baseURL.appendingPathComponent("completion")
            let error = await backendError { _ = try await OpenAIClient(endpoint: OpenAIEndpoint(baseURL: base)).models() }
            #expect(error == .notOpenAICompatible(url: base.appendingPathComponent("models").absoluteString, endpoint: "/completion/models", detail: "HTTP 404"))
        }

        /// llama-server started with `--api-key`: no key and a wrong key are `unauthorized` naming the
        /// variable, never a key; the right one passes the model check and a request.
        @Test func aKeyedServerRefusesMissingAndWrongKeys() async throws {
            let paths = try TestBackend.requirePaths()
            var configuration = TestBackend.configuration(paths)
            configuration.extraArguments = ["--api-key", "lb-test-key-8f3a"]
            let server = try await LlamaServer.launch(configuration, runDirectory: TestBackend.runDirectory())
            defer { server.stop() }
            let base = server.baseURL.appendingPathComponent("v1")
            for key in [nil, APIKey("lb-wrong-key")] {
                let endpoint = OpenAIEndpoint(baseURL: base, key: key, keyVariable: "LB_KEY")
                let error = await backendError { _ = try await OpenAIClient(endpoint: endpoint).resolve() }
                #expect(error == .unauthorized(url: base.appendingPathComponent("models").absoluteString, keyVariable: "LB_KEY"))
                #expect(error?.description.hasPrefix("unauthorized: set LB_KEY") == true)
                #expect(error?.description.contains("lb-wrong-key") == false)
            }
            let attached = try await LlamaServer.attach(openAI: OpenAIEndpoint(baseURL: base, key: APIKey("lb-test-key-8f3a"), keyVariable: "LB_KEY"))
            let reply = try await attached.backend().complete(Self.greedy("The capital of France is"))
            #expect(!reply.content.isEmpty)
        }
    }
}
