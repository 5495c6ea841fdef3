import Foundation
import Testing
@testable import Backend

extension IntegrationTests {
    @Suite struct Completions {
        @Test func completionCarriesClientAndServerTimings() async throws {
            let server = try await SharedServer.shared.get()
            let request = CompletionRequest(prompt: "The capital of France is", maxTokens: 8, temperature: 0, seed: 42,
                                            stop: ["\n"], cachePrompt: true)
            let completion = try await server.client().complete(request)
            // The native API always sends timings, counts and settings.
            let timings = try #require(completion.server), settings = try #require(completion.settings)
            let predicted = try #require(completion.tokensPredicted), evaluated = try #require(completion.tokensEvaluated)

            #expect(!completion.content.isEmpty)
            #expect(completion.tokensPredicted == timings.predictedN)
            #expect(predicted <= 8)
            #expect(evaluated > 0)
            #expect(timings.promptN + timings.cacheN == evaluated)
            #expect(timings.promptMs > 0)
            #expect(timings.predictedPerSecond > 0)
            #expect(completion.truncated == false)
            if predicted == 8 { #expect(completion.stopType == .limit) }

            let ttft = try #require(completion.client.timeToFirstTokenMs)
            #expect(ttft > 0)
            #expect(ttft <= completion.client.wallMs)
            #expect(completion.client.tokenEvents == completion.tokensPredicted)
            #expect(completion.client.wallMs >= timings.promptMs + timings.predictedMs)

            #expect(completion.settings == EchoedSettings(nPredict: 8, temperature: 0, seed: 42, topK: 40,
                                                          topP: settings.topP, minP: settings.minP,
                                                          stop: ["\n"], ignoreEOS: false))
            #expect(abs(settings.topP - 0.95) < 1e-6)
        }

        /// llama.cpp promises the same text for the same seed only from the same state: it does not promise it
        /// across cache states (a cached prefix is evaluated in other batches than a fresh one). So each
        /// comparison here starts both requests from the same state, and the cache itself is checked by its
        /// counters, not by the text.
        @Test func sameSeedFromTheSameCacheStateRepeatsAndTheCacheIsReused() async throws {
            let client = try await SharedServer.shared.get().client()
            let request = CompletionRequest(prompt: "Once upon a time, in a small village,", maxTokens: 24,
                                            temperature: 0.9, seed: 1234, stop: [], cachePrompt: true)
            _ = try await client.complete(request)  // the prompt is now cached, whatever state the slot was in
            let cached = try await client.complete(request)
            let cachedAgain = try await client.complete(request)
            #expect(cached.server?.cacheN ?? 0 > 0, "cache_prompt reuses the prefix")
            #expect(try #require(cached.server?.promptN) < #require(cached.tokensEvaluated))
            #expect(cachedAgain.server?.cacheN == cached.server?.cacheN)
            #expect(cachedAgain.content == cached.content)

            var noCache = request
            noCache.cachePrompt = false
            let fresh = try await client.complete(noCache)
            let freshAgain = try await client.complete(noCache)
            #expect(fresh.server?.cacheN == 0)
            #expect(fresh.server?.promptN == fresh.tokensEvaluated)
            #expect(freshAgain.server?.cacheN == 0)
            #expect(freshAgain.content == fresh.content)
        }

        @Test func promptLongerThanTheContextIsAnHTTPError() async throws {
            let client = try await SharedServer.shared.get().client()
            let request = CompletionRequest(prompt: String(repeating: "word ", count: 5000), maxTokens: 4)
            let error = await backendError { _ = try await client.complete(request) }
            guard case .httpStatus(let code, let message, _) = error else {
                Issue.record("expected httpStatus, got \(String(describing: error))")
                return
            }
            #expect(code == 400)
            #expect(message.contains("context"))
        }

        @Test func requestDeadlineIsATypedTimeout() async throws {
            let server = try await SharedServer.shared.get()
            let request = CompletionRequest(prompt: "Count:", maxTokens: 1000, stop: [], ignoreEOS: true)
            let start = ContinuousClock.now
            let error = await backendError { _ = try await server.client(requestTimeout: 0.3).complete(request) }
            #expect(error == .timeout(url: server.baseURL.appendingPathComponent("completion").absoluteString, seconds: 0.3))
            #expect(ContinuousClock.now - start < .seconds(3))
            // The server is still usable: the cancelled request freed its slot.
            let after = try await server.client().complete(CompletionRequest(prompt: "Hello", maxTokens: 2))
            #expect(try #require(after.tokensPredicted) <= 2)
        }

        @Test func nothingListeningIsConnectionRefused() async throws {
            let port = try FreePort.find()
            let url = URL(string: "http://127.0.0.1:\(port)")!
            let error = await backendError { _ = try await LlamaClient(baseURL: url).complete(CompletionRequest(prompt: "x")) }
            #expect(error == .connectionRefused(url: "http://127.0.0.1:\(port)/completion"))
        }
    }
}
