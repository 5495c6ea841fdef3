import ByteIO
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@testable import Backend

/// The digests later processes reuse: a file changed in any way is hashed again, and an entry that is not the cache's
/// own for that file state is never believed.
@Suite final class DigestCacheTests {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("digest-cache-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)  // try?: a scratch folder left behind fails nothing
    }

    /// A file of `size` bytes of `byte`.
    func file(_ name: String, byte: UInt8, size: Int = DigestCache.minimumSize) throws -> String {
        let url = directory.appendingPathComponent(name)
        try Data(repeating: byte, count: size).write(to: url)
        return url.path
    }

    @Test func aStoredDigestIsReadBackForTheSameFileState() throws {
        let cache = DigestCache(directory: directory.appendingPathComponent("digests"))
        let path = try file("model.gguf", byte: 1)
        let state = try #require(DigestCache.FileState(path: path))
        #expect(cache.digest(of: state) == nil)
        cache.store(String(repeating: "a", count: 64), of: state)
        #expect(cache.digest(of: try #require(DigestCache.FileState(path: path))) == String(repeating: "a", count: 64))
    }

    @Test func aFileRewrittenToTheSameSizeIsAnotherState() throws {
        let cache = DigestCache(directory: directory.appendingPathComponent("digests"))
        let path = try file("model.gguf", byte: 1)
        cache.store(String(repeating: "a", count: 64), of: try #require(DigestCache.FileState(path: path)))
        // Rewritten in place: same path and size, new content; the status-change time moves even if mtime is set back.
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.write(contentsOf: Data([2]))
        try handle.close()
        #expect(cache.digest(of: try #require(DigestCache.FileState(path: path))) == nil)
    }

    @Test func anEntryNotWrittenForThisStateIsNotBelieved() throws {
        let cache = DigestCache(directory: directory.appendingPathComponent("digests"))
        let path = try file("model.gguf", byte: 1)
        let state = try #require(DigestCache.FileState(path: path))
        cache.store(String(repeating: "b", count: 64), of: state)
        let entry = try #require(try FileManager.default.contentsOfDirectory(at: cache.directory, includingPropertiesForKeys: nil).first)
        let check = { (body: String) in body + "\n" + SHA256.hex(Data(body.utf8)) }
        for damaged in [check(String(repeating: "b", count: 64) + "\nanother file's state"), check(String(repeating: "B", count: 64) + "\n" + state.key),
                        check("short\n" + state.key), String(repeating: "b", count: 64) + "\n" + state.key,
                        // Edited by hand to another well-formed digest: the check no longer holds.
                        String(repeating: "c", count: 64) + "\n" + state.key + "\n" + SHA256.hex(Data((String(repeating: "b", count: 64) + "\n" + state.key).utf8))] {
            try Data(damaged.utf8).write(to: entry)
            #expect(cache.digest(of: state) == nil)
        }
    }

    @Test func theChecksumIsTheFilesAndFollowsAChangedFile() async throws {
        let cache = DigestCache(directory: directory.appendingPathComponent("digests"))
        let path = try file("model.gguf", byte: 1)
        let first = try await ModelChecksum.sha256(ofFileAt: path, cache: cache)
        #expect(first == SHA256.hex(Data(repeating: 1, count: DigestCache.minimumSize)))
        #expect(try FileManager.default.contentsOfDirectory(atPath: cache.directory.path).count == 1)
        // Replaced by another file of the same size: the new content's digest, not the kept one.
        try Data(repeating: 3, count: DigestCache.minimumSize).write(to: URL(fileURLWithPath: path))
        #expect(try await ModelChecksum.sha256(ofFileAt: path, cache: cache) == SHA256.hex(Data(repeating: 3, count: DigestCache.minimumSize)))
    }

    /// A second write through a shared mapping finds its page already dirty and leaves the file's times alone; the
    /// content sample still sees it where it lands.
    @Test func aWriteThroughASharedMappingThatLeavesTheTimesIsSeen() async throws {
        let cache = DigestCache(directory: directory.appendingPathComponent("digests"))
        let path = try file("model.gguf", byte: 1)
        let fd = open(path, O_RDWR)
        try #require(fd >= 0)
        defer { close(fd) }
        let mapped = try #require(mmap(nil, DigestCache.minimumSize, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0))
        try #require(mapped != MAP_FAILED)
        defer { munmap(mapped, DigestCache.minimumSize) }
        let bytes = mapped.assumingMemoryBound(to: UInt8.self)
        bytes[0] = 7
        let first = try await ModelChecksum.sha256(ofFileAt: path, cache: cache)
        bytes[1] = 7
        var expected = Data(repeating: 1, count: DigestCache.minimumSize)
        expected[0] = 7
        expected[1] = 7
        #expect(first != SHA256.hex(expected))
        #expect(try await ModelChecksum.sha256(ofFileAt: path, cache: cache) == SHA256.hex(expected))
    }

    @Test func nothingIsWrittenWhereTheCacheHasNoFolder() throws {
        let cache = DigestCache(directory: directory.appendingPathComponent("no-setup-cache/digests"))
        cache.store(String(repeating: "a", count: 64), of: try #require(DigestCache.FileState(path: try file("model.gguf", byte: 1))))
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("no-setup-cache").path))
    }

    @Test func aSmallFileIsNotKept() async throws {
        let cache = DigestCache(directory: directory.appendingPathComponent("digests"))
        let path = try file("small", byte: 1, size: 100)
        #expect(try await ModelChecksum.sha256(ofFileAt: path, cache: cache) == SHA256.hex(Data(repeating: 1, count: 100)))
        #expect(!FileManager.default.fileExists(atPath: cache.directory.path))
    }
}
