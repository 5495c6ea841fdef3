import Foundation
import LangBench

/// How generation reaches llama-server: start one (binary and model from the set-up cache or
/// LANGBENCH_LLAMA_SERVER / LANGBENCH_MODEL) or attach to a running one.
struct BackendOptions {
    static let group = OptionGroup("Server", [
        .value("server-url", "url", help: "Use a running llama-server instead of starting one (e.g. a bigger machine)."),
        .value("threads", "n", help: "Threads for a started server.", computedDefault: "the profile's"),
        .value("request-timeout", "seconds", help: "Per-request timeout.", default: OptionSpec.number(ServerSource().requestTimeout)),
    ])

    var source: ServerSource

    init(_ arguments: ParsedArguments) throws {
        source = ServerSource()
        if let raw = arguments.value("server-url") { source.url = try ServerURLOption.parse(raw, command: arguments.command) }
        source.threads = try arguments.optionalInt("threads", range: 1...256)
        source.requestTimeout = try arguments.seconds("request-timeout")
    }
}

/// `--server-url` of `generate`, `run` and `doctor`: `ServerSource.parseURL`'s check, as a usage error.
enum ServerURLOption {
    static func parse(_ text: String, command: String) throws -> URL {
        do {
            return try ServerSource.parseURL(text)
        } catch let error as ConfigurationError {
            guard case .invalidValue(_, _, let reason) = error else { throw error }
            throw UsageError("--server-url '\(text)': \(reason)", command: command)
        }
    }
}
