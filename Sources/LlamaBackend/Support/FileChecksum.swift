import BenchSupport
import Foundation

/// SHA-256 of a large file (the model is 253 MB).
enum FileChecksum {
    /// The system's `sha256sum` (or macOS `shasum -a 256`) when present, else the built-in `SHA256`.
    /// The tool hashes at hundreds of MB/s in every build, while the built-in code — fast in release
    /// builds — crawls in unoptimised debug builds, where `doctor` runs in the tests.
    static func sha256(of url: URL) async throws -> String {
        for (tool, arguments) in [("/usr/bin/sha256sum", [String]()), ("/usr/bin/shasum", ["-a", "256"])]
        where FileManager.default.isExecutableFile(atPath: tool) {
            let output = try await ProcessRunner.run(tool, arguments + [url.path], timeout: 600)
            let digest = output.standardOutput.prefix { !$0.isWhitespace }
            if output.status == 0, digest.count == 64, digest.allSatisfy(\.isHexDigit) {
                return digest.lowercased()
            }
            throw BackendError.commandFailed(command: "\(tool) \(url.path)", reason: "exited with status \(output.status)",
                                             outputTail: output.standardError.split(separator: "\n").suffix(3).map(String.init))
        }
        return try SHA256.hex(fileAt: url)
    }
}
