import Support
import Foundation
import Suite
import Backend

/// How generation reaches llama-server: start one (binary and model from the set-up cache or
/// LANGBENCH_LLAMA_SERVER / LANGBENCH_MODEL) or attach to a running one.
struct BackendOptions {
    static let group = OptionGroup("Server", [
        .repeated("server-url", "url", help: "Use a running llama-server instead of starting one (e.g. a bigger machine); a URL ending in /v1 speaks the OpenAI-compatible API. Repeat it for a pool: the items are dealt across the servers."),
        .value("servers-file", "path", help: "Add the servers listed in a file to the pool, one URL per line after any --server-url (blank lines and # comments ignored)."),
        .value("api-key-env", "name", help: "Environment variable holding the OpenAI-compatible server's API key.", computedDefault: "the profile's backend.api_key_env"),
        .value("threads", "n", help: "Threads for a started server.", computedDefault: "the profile's"),
        .value("request-timeout", "seconds", help: "Per-request timeout.", default: OptionSpec.number(ServerSource().requestTimeout)),
    ])

    var source: ServerSource

    init(_ arguments: ParsedArguments) throws {
        source = ServerSource()
        let flags = try arguments.values("server-url").map { try ServerURLOption.parse($0, command: arguments.command) }
        var places = flags.indices.map { "--server-url #\($0 + 1)" }
        source.urls = flags
        if let path = arguments.value("servers-file") {
            let listed = try ServerURLOption.parseFile(path, command: arguments.command)
            source.urls += listed.map(\.url)
            places += listed.map { "--servers-file \(path):\($0.line)" }
        }
        if let duplicate = ServerSource.duplicate(in: source.urls, places: places) {
            throw UsageError("\(duplicate.url) is given twice (\(duplicate.first) and \(duplicate.second)): one server is one server; "
                             + "llama-server's native URL and its /v1 are the same server", command: arguments.command)
        }
        source.threads = try arguments.optionalInt("threads", range: 1...256)
        source.apiKeyEnv = try arguments.value("api-key-env").map { try APIKeyEnvOption.parse($0, command: arguments.command) }
        source.requestTimeout = try arguments.seconds("request-timeout")
    }
}

/// `--api-key-env` of `generate`, `run` and `doctor`: a variable name, never the key itself.
enum APIKeyEnvOption {
    static func parse(_ text: String, command: String) throws -> String {
        guard APIKey.isVariableName(text) else {
            // The value may be a key pasted by mistake: do not echo it.
            throw UsageError("--api-key-env takes the name of an environment variable (e.g. OPENAI_API_KEY), not a key", command: command)
        }
        return text
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

    /// `--servers-file`'s URLs; a line that is not one is a usage error naming the file and line, not its text
    /// (which may carry a credential).
    static func parseFile(_ path: String, command: String) throws -> [(url: URL, line: Int)] {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw UsageError("--servers-file \(path) is a directory; give the file that lists one server URL per line", command: command)
        }
        let text: String
        do { text = try String(contentsOfFile: path, encoding: .utf8) } catch {
            throw ConfigurationError.invalid(path: path, reason: "cannot read the servers file: \(error.localizedDescription)")
        }
        let urls = try ServersFile.entries(text).map { entry -> (url: URL, line: Int) in
            do {
                return (try ServerSource.parseURL(entry.text), entry.line)
            } catch let error as ConfigurationError {
                guard case .invalidValue(_, _, let reason) = error else { throw error }
                throw UsageError("--servers-file \(path):\(entry.line): \(reason)", command: command)
            }
        }
        guard !urls.isEmpty else { throw UsageError("--servers-file \(path): lists no server URL", command: command) }
        return urls
    }
}
