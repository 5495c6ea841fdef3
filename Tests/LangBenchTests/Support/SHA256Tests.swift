import Foundation
import Testing
@testable import LangBench

struct SHA256Tests {
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
    ])
    func knownVectors(input: String, digest: String) {
        #expect(SHA256.hex(Data(input.utf8)) == digest)
    }

    @Test func incrementalEqualsOneShot() {
        let data = Data((0..<1000).map { UInt8($0 % 251) })
        var hasher = SHA256()
        hasher.update(data.prefix(333))
        hasher.update(data.dropFirst(333))
        #expect(hasher.finalize() == SHA256.hex(data))
    }
}
