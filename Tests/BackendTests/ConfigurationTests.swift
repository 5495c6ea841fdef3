import Foundation
import Testing
@testable import Backend

@Suite struct ConfigurationTests {
    @Test func serverArgumentsAreAllExplicit() {
        let configuration = ServerConfiguration(binary: "/b/llama-server", model: "/m.gguf", contextSize: 4096,
                                                threads: 3, parallelSlots: 2, swaFull: true)
        #expect(configuration.arguments(port: 8081) == [
            "--model", "/m.gguf", "--host", "127.0.0.1", "--port", "8081", "--ctx-size", "4096",
            "--threads", "3", "--threads-batch", "3", "--parallel", "2", "--no-webui", "--swa-full",
        ])
        var plain = configuration
        plain.swaFull = false
        plain.extraArguments = ["--mlock"]
        #expect(!plain.arguments(port: 1).contains("--swa-full"))
        #expect(plain.arguments(port: 1).last == "--mlock")
    }

    @Test func requestBodySendsEverySetting() throws {
        let request = CompletionRequest(prompt: "Hi", maxTokens: 7, temperature: 0.5, seed: 9, stop: ["\n"],
                                        cachePrompt: false, topK: 20, topP: 0.9, minP: 0.1, ignoreEOS: true)
        let json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(request.body)) as? [String: Any]
        let body = try #require(json)
        #expect(Set(body.keys) == ["prompt", "n_predict", "temperature", "seed", "stop", "cache_prompt", "top_k",
                                   "top_p", "min_p", "ignore_eos", "stream"])
        #expect(body["n_predict"] as? Int == 7)
        #expect(body["cache_prompt"] as? Bool == false)
        #expect(body["stream"] as? Bool == true)
        #expect(body["stop"] as? [String] == ["\n"])
    }

    @Test(arguments: [
        ([String: String](), "/home/u/.cache/langbench/llama.cpp/b11434-noamx/bin/llama-server",
         "/home/u/.cache/langbench/models/gemma-3-270m-q4_k_m.gguf", "set-up cache"),
        (["LANGBENCH_CACHE": "/c"], "/c/llama.cpp/b11434-noamx/bin/llama-server", "/c/models/gemma-3-270m-q4_k_m.gguf",
         "set-up cache"),
        (["LANGBENCH_LLAMA_SERVER": "/opt/llama-server", "LANGBENCH_MODEL": "/m.gguf"], "/opt/llama-server", "/m.gguf",
         "LANGBENCH_LLAMA_SERVER"),
        (["LANGBENCH_LLAMA_SERVER": ""], "/home/u/.cache/langbench/llama.cpp/b11434-noamx/bin/llama-server",
         "/home/u/.cache/langbench/models/gemma-3-270m-q4_k_m.gguf", "set-up cache"),
    ])
    func pathsPreferTheEnvironment(environment: [String: String], server: String, model: String, source: String) {
        var environment = environment
        environment["HOME"] = "/home/u"
        let paths = BackendPaths.resolve(environment: environment)
        #expect(paths.server == server)
        #expect(paths.model == model)
        #expect(paths.serverSource == source)
        #expect(paths.bench == URL(fileURLWithPath: server).deletingLastPathComponent().path + "/llama-bench")
    }

    @Test func doctorChecksSummarise() {
        let checks = [
            DoctorCheck(name: "a", status: .passed, detail: ""),
            DoctorCheck(name: "b", status: .failed, detail: "", fix: "scripts/setup-llama"),
            DoctorCheck(name: "c", status: .skipped, detail: "", fix: "scripts/setup-llama"),
            DoctorCheck(name: "d", status: .failed, detail: "", fix: "x", required: false),
        ]
        #expect(!checks.allRequiredPassed)
        #expect(checks.fixes == ["scripts/setup-llama", "x"])
        #expect([checks[0], checks[3]].allRequiredPassed)
    }
}
