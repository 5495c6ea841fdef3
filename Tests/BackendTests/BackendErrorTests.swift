import Testing
@testable import Backend

@Suite struct BackendErrorTests {
    @Test(arguments: [
        (BackendError.binaryNotFound(path: "/x/llama-server"),
         "llama-server not found at /x/llama-server; run scripts/setup-llama or set LANGBENCH_LLAMA_SERVER"),
        (.modelNotFound(path: "/m.gguf"), "model not found at /m.gguf; run scripts/setup-model or set LANGBENCH_MODEL"),
        (.modelChecksumMismatch(path: "/m.gguf", expected: "aa", actual: "bb"),
         "model /m.gguf has SHA-256 bb, expected aa; delete it and run scripts/setup-model"),
        (.startFailed(reason: "llama-server exited (status 1) before /health answered",
                      logTail: ["a", "gguf_init: failed to load model"], logFile: "/run/llama-server.log"),
         "llama-server failed to start: llama-server exited (status 1) before /health answered; last log line: gguf_init: failed to load model; see /run/llama-server.log"),
        (.connectionRefused(url: "http://127.0.0.1:9/health"),
         "connection refused at http://127.0.0.1:9/health; start llama-server or check --server-url"),
        (.timeout(url: "http://h/completion", seconds: 0.5),
         "no complete answer from http://h/completion within 0.5 s; raise the request timeout or check the server"),
        (.serverLoading(url: "http://h/health"),
         "server at http://h/health is still loading the model (503); wait for /health to answer 200"),
        (.httpStatus(code: 400, message: "exceed_context_size_error: too long", url: "http://h/completion"),
         "server at http://h/completion answered HTTP 400: exceed_context_size_error: too long; fix the request or the server settings"),
        (.httpStatus(code: 401, message: "Invalid API Key", url: "http://h/completion"),
         "server at http://h/completion answered HTTP 401: Invalid API Key; LangBench sends an API key only to an OpenAI-compatible URL: attach with --server-url http://HOST:PORT/v1 and a profile whose backend has \"api\": \"openai-completions\" and \"api_key_env\""),
        (.streamCutOff(url: "http://h/completion", detail: "connection lost"),
         "stream from http://h/completion was cut off (connection lost); check that the server is still running and its log"),
        (.malformedResponse(url: "http://h/completion", detail: "event is not completion JSON: {"),
         "unexpected response from http://h/completion (event is not completion JSON: {); is this a llama-server?"),
        (.commandFailed(command: "llama-bench -m m", reason: "exited with status 1", outputTail: ["boom"]),
         "llama-bench -m m exited with status 1; last output line: boom; run it by hand to see why"),
    ])
    func messagesSayWhatToDo(error: BackendError, message: String) {
        #expect(error.description == message)
        #expect(!message.contains("\n"))
    }
}
