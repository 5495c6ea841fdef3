import Support
import Foundation
import ByteIO

/// The content hash of the recognizer's model file in the results log's header (42 MB, hashed once per
/// run): FNV-1a's step (xor, then multiply by the FNV prime) over 8-byte little-endian words instead of
/// bytes, in four lanes (word i goes to lane i mod 4, so the multiplications overlap), the last partial
/// word zero-padded; then the four lanes and the byte count hashed with byte-wise `FNV1a64`. Byte-wise
/// FNV-1a is one chain of multiplications, ~4 cycles a byte (~40 ms of every run); this hashes ~8× faster.
/// Any one changed word changes its lane's value (each step is invertible), and the count tells a
/// zero-padded tail from real zeros. Like `FNV1a64`, a guard against edits, not against an adversary.
struct ModelHash {
    private var lanes: (UInt64, UInt64, UInt64, UInt64)
    /// Bytes of a 32-byte group not yet complete (fewer than 32).
    private var pending: [UInt8] = []
    private var count: UInt64 = 0

    private static let basis: UInt64 = 0xcbf2_9ce4_8422_2325
    private static let prime: UInt64 = 0x0000_0100_0000_01b3

    init() {
        lanes = (Self.basis, Self.basis ^ 1, Self.basis ^ 2, Self.basis ^ 3)
        pending.reserveCapacity(32)
    }

    mutating func add(_ bytes: ByteView) {
        count &+= UInt64(bytes.count)
        var start = 0
        if !pending.isEmpty {
            start = min(32 - pending.count, bytes.count)
            pending.append(contentsOf: bytes[..<start])
            guard pending.count == 32 else { return }
            pending.withBytes { groups($0) }
            pending.removeAll(keepingCapacity: true)
        }
        let whole = (bytes.count - start) & ~31
        groups(bytes[start..<(start + whole)])
        pending.append(contentsOf: bytes[(start + whole)...])
    }

    /// Whole 32-byte groups, a word to each lane.
    private mutating func groups(_ bytes: ByteView) {
        var (a, b, c, d) = lanes
        var at = 0
        while at < bytes.count {
            a = (a ^ bytes.load(littleEndian: UInt64.self, at: at)) &* Self.prime
            b = (b ^ bytes.load(littleEndian: UInt64.self, at: at + 8)) &* Self.prime
            c = (c ^ bytes.load(littleEndian: UInt64.self, at: at + 16)) &* Self.prime
            d = (d ^ bytes.load(littleEndian: UInt64.self, at: at + 24)) &* Self.prime
            at += 32
        }
        lanes = (a, b, c, d)
    }

    /// The hash of everything added, as 16 lowercase hex digits.
    var hex: String {
        var lanes = [self.lanes.0, self.lanes.1, self.lanes.2, self.lanes.3]
        // The partial group: its words (the last one zero-padded) continue the lanes in order.
        let tail = pending + [UInt8](repeating: 0, count: (8 - pending.count % 8) % 8)
        tail.withBytes { raw in
            for word in 0..<(raw.count / 8) {
                lanes[word] = (lanes[word] ^ raw.load(littleEndian: UInt64.self, at: 8 * word)) &* Self.prime
            }
        }
        var fold = FNV1a64()
        for value in lanes + [count] { fold.add(littleEndian: value) }
        return fold.hex
    }

    /// The hash of a file's bytes, read in blocks.
    static func hex(fileAt url: URL) throws -> String {
        var hash = ModelHash()
        try FileHandle.forEachBlock(ofFileAt: url) { $0.withBytes { hash.add($0) } }
        return hash.hex
    }
}
