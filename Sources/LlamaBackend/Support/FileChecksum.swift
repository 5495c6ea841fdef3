import BenchSupport
import Foundation
import Synchronization

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

/// Refuses a model file that is not the one a profile names, before a server is launched with it.
public enum ModelChecksum {
    /// Files already verified in this process, by path, size and modification time (hashing 253 MB
    /// takes a second, and tests launch many servers).
    private static let verified = Mutex<Set<String>>([])

    /// Throws `modelChecksumMismatch` unless the SHA-256 of the file at `path` is `expected` (hex).
    public static func verify(_ path: String, expected: String) async throws {
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)  // try?: a missing file fails at launch, with its own error
        let stamp = "\(path)\u{1F}\(attributes?[.size] ?? "")\u{1F}\((attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0)"
        if verified.withLock({ $0.contains(stamp) }) { return }
        let actual = try await FileChecksum.sha256(of: URL(fileURLWithPath: path))
        guard actual == expected.lowercased() else {
            throw BackendError.modelChecksumMismatch(path: path, expected: expected, actual: actual)
        }
        _ = verified.withLock { $0.insert(stamp) }
    }
}
