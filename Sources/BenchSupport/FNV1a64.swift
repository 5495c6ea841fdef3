/// 64-bit FNV-1a, the package's one non-cryptographic hash: the results log's content hashes (items and the
/// recognizer model; SHA-256 of the 40 MB model cost more than detecting 20,000 items), shards, the choice of a
/// fallback line. Stable across processes and platforms, unlike `Hasher`; it guards against edits, not an adversary.
public struct FNV1a64: Sendable {
    @usableFromInline var state: UInt64 = 0xcbf2_9ce4_8422_2325
    public var value: UInt64 { state }

    @inlinable public init() {}

    @inlinable public mutating func add(_ bytes: UnsafeRawBufferPointer) {
        var hash = state
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        state = hash
    }

    @inlinable public mutating func add(_ text: String) {
        var text = text
        text.withUTF8 { add(UnsafeRawBufferPointer($0)) }
    }

    /// A byte no text field contains, between fields, so "a"+"bc" ≠ "ab"+"c".
    @inlinable public mutating func separate() {
        state ^= 0x1F
        state &*= 0x0000_0100_0000_01b3
    }

    public var hex: String { Self.hex(value) }

    /// `value` as 16 lowercase hex digits.
    public static func hex(_ value: UInt64) -> String {
        String(unsafeUninitializedCapacity: 16) { hex(value, into: $0) }
    }

    /// `value`'s 16 lowercase hex digits written at the start of `buffer` (at least 16 bytes); returns 16.
    @inlinable public static func hex(_ value: UInt64, into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int {
        for i in 0..<16 {
            let digit = UInt8((value >> UInt64(60 - 4 * i)) & 0xF)
            buffer[i] = digit < 10 ? 0x30 + digit : 0x57 + digit  // 0-9, a-f
        }
        return 16
    }
}
