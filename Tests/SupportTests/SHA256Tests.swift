import Foundation
import ByteIO
import Testing
@testable import Support

@Suite struct SHA256Tests {
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
    ])
    func knownVectors(input: String, digest: String) {
        var hasher = SHA256()
        hasher.update(Data(input.utf8))
        #expect(hasher.finalize() == digest)
    }

    /// Every way of cutting the input into two updates gives the same digest (block-boundary bugs).
    @Test func chunkingDoesNotMatter() {
        let input = Data((0..<200).map { UInt8($0) })
        var whole = SHA256()
        whole.update(input)
        let expected = whole.finalize()
        for cut in 0...input.count {
            var split = SHA256()
            split.update(input.prefix(cut))
            split.update(input.dropFirst(cut))
            #expect(split.finalize() == expected, "cut at \(cut)")
        }
    }

    @Test func hashesAFile() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("sha-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: url) }
        try Data(repeating: UInt8(ascii: "a"), count: 1_000_000).write(to: url)
        #expect(try SHA256.hex(fileAt: url) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }
}
