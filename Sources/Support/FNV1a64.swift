/// 64-bit FNV-1a, the package's one non-cryptographic hash: the results log's content hashes (items and the
/// recognizer model; SHA-256 of the 40 MB model cost more than detecting 20,000 items), shards, the choice of a
/// fallback line. Stable across processes and platforms, unlike `Hasher`; it guards against edits, not an adversary.
@usableFromInline package struct FNV1a64: Sendable {
    @usableFromInline var state: UInt64 = 0xcbf2_9ce4_8422_2325
    package var value: UInt64 { state }

    @inlinable package init() {}

    /// The bytes of `text`'s UTF-8.
    @inlinable package mutating func add(_ text: String) {
        var hash = state
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        state = hash
    }

    /// The 8 bytes of `value`, least significant first (its little-endian bytes).
    @inlinable package mutating func add(littleEndian value: UInt64) {
        var hash = state
        for k in 0..<8 {
            hash ^= (value >> UInt64(8 * k)) & 0xFF
            hash &*= 0x0000_0100_0000_01b3
        }
        state = hash
    }

    /// A byte no text field contains, between fields, so "a"+"bc" ≠ "ab"+"c".
    @inlinable package mutating func separate() {
        state ^= 0x1F
        state &*= 0x0000_0100_0000_01b3
    }

    package var hex: String { Self.hex(value) }

    /// `value` as 16 lowercase hex digits.
    package static func hex(_ value: UInt64) -> String {
        String(unsafeUninitializedCapacity: 16) { buffer in
            for i in 0..<16 { buffer[i] = hexDigit(value, i) }
            return 16
        }
    }

    /// The `i`th of `value`'s 16 lowercase hex digits, most significant first.
    @inlinable package static func hexDigit(_ value: UInt64, _ i: Int) -> UInt8 {
        let digit = UInt8((value >> UInt64(60 - 4 * i)) & 0xF)
        return digit < 10 ? 0x30 + digit : 0x57 + digit  // 0-9, a-f
    }
}
