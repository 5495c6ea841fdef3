/// What a llama.cpp binary says about its own build.
enum LlamaBuild {
    /// `llama-server --version` prints e.g. `version: 11434 (b11434)` and `built with ...` to stderr.
    static func version(ofServerAt path: String) async throws -> String {
        let output = try await ProcessRunner.run(path, ["--version"], timeout: 15)
        let lines = (output.standardError + "\n" + output.standardOutput).split(separator: "\n").map(String.init)
        guard output.status == 0, let line = lines.first(where: { $0.hasPrefix("version:") }) else {
            throw BackendError.commandFailed(command: "\(path) --version", reason: "exited with status \(output.status)",
                                             outputTail: Array(lines.suffix(5)))
        }
        return line
    }
}
