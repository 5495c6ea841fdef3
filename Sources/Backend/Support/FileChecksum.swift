import Support
import Foundation
import ByteIO
import Synchronization
#if canImport(Darwin)
import Darwin
#else
import Glibc
#endif

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
    /// Digests already computed in this process, by file state (hashing 253 MB takes a second and a half, and tests
    /// launch many servers).
    private static let digests = Mutex<[String: String]>([:])

    /// The SHA-256 (hex) of the file at `path`; computed once per file state, whichever process asks: a digest is
    /// kept in this process and, for a file of a megabyte or more, in `persistent`, so the 24 block runs of a CI
    /// job hash the model once.
    package static func sha256(ofFileAt path: String, cache persistent: DigestCache = .standard) async throws -> String {
        guard let state = DigestCache.FileState(path: path) else {
            _ = try FileManager.default.attributesOfItem(atPath: path)  // the reason it cannot be read, as an error
            return try await FileChecksum.sha256(of: URL(fileURLWithPath: path))
        }
        if let known = digests.withLock({ $0[state.key] }) { return known }
        let cache = state.size >= DigestCache.minimumSize ? persistent : nil
        let digest: String
        if let stored = cache?.digest(of: state) {
            digest = stored
        } else {
            digest = try await FileChecksum.sha256(of: URL(fileURLWithPath: path))
            cache?.store(digest, of: state)
        }
        digests.withLock { $0[state.key] = digest }
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

/// Digests computed by earlier processes: one small file per file state under `directory`, named by the SHA-256
/// of the state and holding the digest, the state itself, and a check of both. A file's state is what git's index
/// trusts of a stat — path, device, inode, size, and the modification and status-change times to the nanosecond; any
/// write through `write` changes the last — and a sample of its content (its first, middle and last 64 KiB), which a
/// write through a shared mapping that left the times alone still changes where it lands. A changed file is hashed
/// again; an entry whose check fails (edited by hand, cut short) is not believed. A cache that cannot be read or
/// written is only slower.
package struct DigestCache: Sendable {
    package var directory: URL

    package init(directory: URL) { self.directory = directory }

    /// Smaller files are hashed in milliseconds and not kept (a test's scratch files would only pile up).
    package static let minimumSize = 1 << 20

    /// `digests` in the set-up cache (`LANGBENCH_CACHE`, default `~/.cache/langbench`).
    package static var standard: DigestCache {
        DigestCache(directory: URL(fileURLWithPath: BackendPaths.cacheDirectory(environment: ProcessInfo.processInfo.environment))
            .appendingPathComponent("digests"))
    }

    /// A file's state as `stat` gives it, with the SHA-256 of its content sample; nil when the file cannot be stat'ed or read.
    package struct FileState: Sendable {
        package let key: String
        package let size: Int

        /// Bytes read at each of the sample's three places.
        static let sampleBytes = 64 * 1024

        package init?(path: String) {
            var info = stat()
            guard stat(path, &info) == 0 else { return nil }
            #if canImport(Darwin)
            let (modified, changed) = (info.st_mtimespec, info.st_ctimespec)
            #else
            let (modified, changed) = (info.st_mtim, info.st_ctim)
            #endif
            size = Int(info.st_size)
            guard let sample = Self.sample(path, size: size) else { return nil }
            key = [path, "\(info.st_dev)", "\(info.st_ino)", "\(info.st_size)", "\(modified.tv_sec).\(modified.tv_nsec)",
                   "\(changed.tv_sec).\(changed.tv_nsec)", sample].joined(separator: "\u{1F}")
        }

        /// The SHA-256 of the file's first, middle and last `sampleBytes`; nil when it cannot be read.
        static func sample(_ path: String, size: Int) -> String? {
            guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
            defer { try? handle.close() }  // try?: a read-only handle has nothing to flush
            var hasher = SHA256()
            for offset in Set([0, max(0, size / 2 - sampleBytes / 2), max(0, size - sampleBytes)]).sorted() {
                do {
                    try handle.seek(toOffset: UInt64(offset))
                    hasher.update(try handle.read(upToCount: sampleBytes) ?? Data())
                } catch { return nil }
            }
            return hasher.finalize()
        }
    }

    private func entry(_ state: FileState) -> URL { directory.appendingPathComponent(SHA256.hex(Data(state.key.utf8))) }

    /// What an entry holds: the digest, the state, and the SHA-256 of both (a hand edit of either is seen).
    private static func contents(_ digest: String, _ state: FileState) -> String {
        let body = digest + "\n" + state.key
        return body + "\n" + SHA256.hex(Data(body.utf8))
    }

    /// The digest stored for `state`; nil when none is, or the entry is not one this cache wrote for it.
    package func digest(of state: FileState) -> String? {
        guard let data = FileManager.default.contents(atPath: entry(state).path) else { return nil }
        let text = String(decoding: data, as: UTF8.self)
        let digest = String(text.prefix(64))
        guard digest.count == 64, digest.allSatisfy({ $0.isHexDigit && !$0.isUppercase }), text == Self.contents(digest, state) else { return nil }
        return digest
    }

    /// Stores `digest` for `state`, written whole or not at all; only where `directory`'s parent exists (the set-up
    /// cache once `scripts/setup` has run), so a run on a machine without one writes nothing into HOME.
    package func store(_ digest: String, of state: FileState) {
        do {
            if !FileManager.default.fileExists(atPath: directory.path) {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
            }
            try Data(Self.contents(digest, state).utf8).write(to: entry(state), options: .atomic)
        } catch {
            // Not stored: the next process hashes the file again, which is all a cache miss costs.
        }
    }
}
