import Foundation

/// Every way the llama.cpp backend can fail, with the context a user needs and a one-line fix.
package enum BackendError: Error, Equatable, Sendable {
    /// The `llama-server` (or `llama-bench`) executable is not at the expected path.
    case binaryNotFound(path: String)
    /// The GGUF model file is not at the expected path.
    case modelNotFound(path: String)
    /// The model file exists but its SHA-256 differs from the expected one.
    case modelChecksumMismatch(path: String, expected: String, actual: String)
    /// The server process could not be launched, exited, or did not become healthy in time.
    case startFailed(reason: String, logTail: [String], logFile: String?, server: String = "llama-server")
    /// Nothing listens at the server URL.
    case connectionRefused(url: String)
    /// The request did not finish within its deadline.
    case timeout(url: String, seconds: Double)
    /// The server is up but still loading the model (HTTP 503).
    case serverLoading(url: String)
    /// The server answered with an error status; `message` is its error body.
    case httpStatus(code: Int, message: String, url: String)
    /// An error event inside a stream the server had begun with HTTP 200 (its own code, if it gave one).
    case streamError(code: Int?, message: String, url: String)
    /// The connection dropped, or the stream ended before the final event.
    case streamCutOff(url: String, detail: String)
    /// The server sent something that is not the llama-server protocol.
    case malformedResponse(url: String, detail: String)
    /// The server answered 200 with something other than an event stream (an HTML page from a proxy, a
    /// JSON document): `body` says what by kind, type and size, never by content.
    case notAnEventStream(url: String, body: String)
    /// One line (or event) of a response was longer than the client buffers (`ResponseLimits`).
    case responseTooLarge(url: String, part: String, limit: Int)
    /// Any other transport failure, with the underlying description.
    case transport(url: String, detail: String)
    /// A helper command (`llama-server --version`, `llama-bench`) failed or timed out.
    case commandFailed(command: String, reason: String, outputTail: [String])
    /// The server refused the API key (HTTP 401/403); `keyVariable` names where the key comes from. Never the key.
    case unauthorized(url: String, keyVariable: String?)
    /// The URL does not serve the OpenAI-compatible `endpoint` (404, HTML, JSON of another shape).
    case notOpenAICompatible(url: String, endpoint: String, detail: String)
    /// The server does not serve `model`; `available` is what `/v1/models` lists.
    case unknownModel(url: String, model: String, available: [String])
    /// The server kept answering 429 (rate limited) after `attempts` tries with backoff.
    case rateLimited(url: String, attempts: Int)
}

extension BackendError: CustomStringConvertible, LocalizedError {
    package var description: String {
        switch self {
        case .binaryNotFound(let path):
            "llama-server not found at \(path); run scripts/setup-llama or set LANGBENCH_LLAMA_SERVER"
        case .modelNotFound(let path):
            "model not found at \(path); run scripts/setup-model or set LANGBENCH_MODEL"
        case .modelChecksumMismatch(let path, let expected, let actual):
            "model \(path) has SHA-256 \(actual), expected \(expected); delete it and run scripts/setup-model"
        case .startFailed(let reason, let logTail, let logFile, let server):
            "\(server) failed to start: \(reason)"
                + (logTail.last.map { "; last log line: \($0)" } ?? "")
                + (logFile.map { "; see \($0)" } ?? "")
        case .connectionRefused(let url):
            "connection refused at \(url); start llama-server or check --server-url"
        case .timeout(let url, let seconds):
            "no complete answer from \(url) within \(Self.format(seconds)) s; raise the request timeout or check the server"
        case .serverLoading(let url):
            "server at \(url) is still loading the model (503); wait for /health to answer 200"
        case .httpStatus(let code, let message, let url) where code == 401 || code == 403:
            // Only the native API answers this way (the OpenAI client maps 401/403 to `unauthorized`), and it is sent no key.
            "server at \(url) answered HTTP \(code): \(message); LangBench sends an API key only to an OpenAI-compatible URL: "
                + "attach with --server-url http://HOST:PORT/v1 and a profile whose backend has \"api\": \"openai-completions\" and \"api_key_env\""
        case .httpStatus(let code, let message, let url):
            "server at \(url) answered HTTP \(code): \(message); fix the request or the server settings"
        case .streamError(let code, let message, let url):
            "server at \(url) sent an error event in its stream after answering HTTP 200\(code.map { " (code \($0))" } ?? ""): \(message); check the server's log"
        case .streamCutOff(let url, let detail):
            "stream from \(url) was cut off (\(detail)); check that the server is still running and its log"
        case .malformedResponse(let url, let detail):
            "unexpected response from \(url) (\(detail)); is this a llama-server?"
        case .notAnEventStream(let url, let body):
            "\(url) answered with \(body) instead of an event stream; check that --server-url is a llama-server"
        case .responseTooLarge(let url, let part, let limit):
            "\(part) from \(url) exceeded \(limit) bytes; check that --server-url is a llama-server"
        case .transport(let url, let detail):
            "request to \(url) failed: \(detail); check the server URL and network"
        case .commandFailed(let command, let reason, let outputTail):
            "\(command) \(reason)" + (outputTail.last.map { "; last output line: \($0)" } ?? "")
                + "; run it by hand to see why"
        case .unauthorized(let url, let keyVariable):
            "unauthorized: set \(keyVariable ?? "the API key variable (--api-key-env NAME)") to a key the server at \(url) accepts"
        case .notOpenAICompatible(let url, let endpoint, let detail):
            "\(url) does not serve the OpenAI-compatible \(endpoint) (\(detail)); check --server-url (it usually ends in /v1) and the profile's backend.api"
        case .unknownModel(let url, let model, let available):
            "the server at \(url) has no model '\(model)'; it serves \(Self.list(available)); set the profile's backend.model"
        case .rateLimited(let url, let attempts):
            "the server at \(url) answered 429 (rate limited) \(attempts) times; lower --concurrency or raise the server's limit"
        }
    }

    package var errorDescription: String? { description }

    /// A list of names short enough for one line: the first few, then how many there are in all.
    static func list(_ names: [String], shown: Int = 10) -> String {
        guard !names.isEmpty else { return "(none)" }
        guard names.count > shown else { return names.joined(separator: ", ") }
        return names.prefix(shown).joined(separator: ", ") + ", … (\(names.count) models in all)"
    }

    private static func format(_ seconds: Double) -> String {
        String(format: "%g", seconds)
    }
}
