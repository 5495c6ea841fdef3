import Support
import Foundation

/// SHA-256 (FIPS 180-4), because swift-corelibs-foundation has no CryptoKit: model and corpus hashes.
package struct SHA256: Sendable {
    private var state: [UInt32] = [
        0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
    ]
    private var pending: [UInt8] = []
    private var length: UInt64 = 0

    private static let k: [UInt32] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    ]

    package init() {}

    /// Adds bytes of any collection (copied once when not contiguous `Data`).
    package mutating func update(_ data: some DataProtocol) {
        update(Data(data))
    }

    package mutating func update(_ data: Data) {
        length += UInt64(data.count)
        data.withBytes { bytes in
            var start = 0
            if !pending.isEmpty {
                start = min(64 - pending.count, bytes.count)
                pending.append(contentsOf: bytes[..<start])
                guard pending.count == 64 else { return }
                let block = pending
                pending.removeAll(keepingCapacity: true)
                block.withBytes { compress($0) }
            }
            let whole = (bytes.count - start) & ~63
            compress(bytes[start..<(start + whole)])
            pending.append(contentsOf: bytes[(start + whole)...])
        }
    }

    /// The digest as lowercase hex.
    package mutating func finalize() -> String {
        let bitLength = length &* 8
        var tail: [UInt8] = [0x80]
        while (pending.count + tail.count) % 64 != 56 { tail.append(0) }
        for shift in stride(from: 56, through: 0, by: -8) { tail.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift))) }
        let saved = length
        update(Data(tail))
        length = saved
        return state.map { String(format: "%08x", $0) }.joined()
    }

    /// Hex digest of `data`.
    package static func hex(_ data: some DataProtocol) -> String {
        var hasher = SHA256()
        hasher.update(data)
        return hasher.finalize()
    }

    /// Hex digest of a file, read in 1 MiB blocks.
    package static func hex(fileAt url: URL) throws -> String {
        var hasher = SHA256()
        try FileHandle.forEachBlock(ofFileAt: url) { hasher.update($0) }
        return hasher.finalize()
    }

    /// The 64-byte blocks of `blocks` (a multiple of 64 bytes), with the state in locals from the first
    /// to the last. Eight rounds per turn of the loop, each with the working variables renamed instead of
    /// shifted; the first 16 rounds take the block's words, the other 48 the message schedule, kept in a
    /// 16-word window computed as rounds need it.
    private mutating func compress(_ view: ByteView) {
        guard view.count >= 64 else { return }
        view.withRaw { blocks in compress(blocks) }
    }

    private mutating func compress(_ blocks: ByteView.Raw) {
        var (s0, s1, s2, s3, s4, s5, s6, s7) = (state[0], state[1], state[2], state[3], state[4], state[5], state[6], state[7])
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 16) { w in
            let w = w.baseAddress!
            Self.k.withUnsafeBufferPointer { k in
                let k = k.baseAddress!
                var block = blocks.baseAddress!
                let end = block + blocks.count
                @inline(__always)
                func step(_ i: Int, _ word: UInt32, _ a: UInt32, _ b: UInt32, _ c: UInt32, _ d: inout UInt32,
                          _ e: UInt32, _ f: UInt32, _ g: UInt32, _ h: inout UInt32) {
                    let t1 = h &+ (e.rotatedRight(6) ^ e.rotatedRight(11) ^ e.rotatedRight(25)) &+ (g ^ (e & (f ^ g))) &+ k[i] &+ word
                    let t2 = (a.rotatedRight(2) ^ a.rotatedRight(13) ^ a.rotatedRight(22)) &+ ((a & b) | (c & (a | b)))
                    d &+= t1
                    h = t1 &+ t2
                }
                @inline(__always)
                func load(_ i: Int) -> UInt32 {
                    let word = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: i &* 4, as: UInt32.self))
                    w[i] = word
                    return word
                }
                @inline(__always)
                func schedule(_ i: Int) -> UInt32 {
                    let w15 = w[(i &- 15) & 15], w2 = w[(i &- 2) & 15]
                    let s0 = w15.rotatedRight(7) ^ w15.rotatedRight(18) ^ (w15 >> 3)
                    let s1 = w2.rotatedRight(17) ^ w2.rotatedRight(19) ^ (w2 >> 10)
                    let word = w[i & 15] &+ s0 &+ w[(i &- 7) & 15] &+ s1
                    w[i & 15] = word
                    return word
                }
                while block < end {
                    var (a, b, c, d, e, f, g, h) = (s0, s1, s2, s3, s4, s5, s6, s7)
                    @inline(__always)
                    func eightRounds(from i: Int, _ word: (Int) -> UInt32) {
                        step(i, word(i), a, b, c, &d, e, f, g, &h)
                        step(i &+ 1, word(i &+ 1), h, a, b, &c, d, e, f, &g)
                        step(i &+ 2, word(i &+ 2), g, h, a, &b, c, d, e, &f)
                        step(i &+ 3, word(i &+ 3), f, g, h, &a, b, c, d, &e)
                        step(i &+ 4, word(i &+ 4), e, f, g, &h, a, b, c, &d)
                        step(i &+ 5, word(i &+ 5), d, e, f, &g, h, a, b, &c)
                        step(i &+ 6, word(i &+ 6), c, d, e, &f, g, h, a, &b)
                        step(i &+ 7, word(i &+ 7), b, c, d, &e, f, g, h, &a)
                    }
                    eightRounds(from: 0, load)
                    eightRounds(from: 8, load)
                    for i in stride(from: 16, to: 64, by: 8) { eightRounds(from: i, schedule) }
                    s0 &+= a; s1 &+= b; s2 &+= c; s3 &+= d; s4 &+= e; s5 &+= f; s6 &+= g; s7 &+= h
                    block += 64
                }
            }
        }
        state = [s0, s1, s2, s3, s4, s5, s6, s7]
    }
}

private extension UInt32 {
    @inline(__always)
    func rotatedRight(_ count: UInt32) -> UInt32 {
        (self >> count) | (self << (32 - count))
    }
}
