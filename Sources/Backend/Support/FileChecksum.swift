import Support
import Foundation
import ByteIO
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

/// The SHA-256 of large files (models, server binaries), and the refusal of a model that is not the file a profile names.
package enum ModelChecksum {
    /// Digests already computed in this process, by path, size and modification time (hashing 253 MB
    /// takes a second, and tests launch many servers).
    private static let digests = Mutex<[String: String]>([:])

    /// The SHA-256 (hex) of the file at `path`; computed once per process and file state.
    package static func sha256(ofFileAt path: String) async throws -> String {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        let stamp = "\(path)\u{1F}\(attributes[.size] ?? "")\u{1F}\((attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0)"
        if let known = digests.withLock({ $0[stamp] }) { return known }
        let digest = try await FileChecksum.sha256(of: URL(fileURLWithPath: path))
        digests.withLock { $0[stamp] = digest }
        return digest
    }

    /// Throws `modelChecksumMismatch` unless the SHA-256 of the file at `path` is `expected` (hex).
    package static func verify(_ path: String, expected: String) async throws {
        // A missing file fails at launch, with its own error.
        guard FileManager.default.fileExists(atPath: path) else { return }
        let actual = try await sha256(ofFileAt: path)
        guard actual == expected.lowercased() else {
            throw BackendError.modelChecksumMismatch(path: path, expected: expected, actual: actual)
        }
    }
}
