#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Support
import Foundation

/// Bytes lent by their owner for the length of a closure (`withBytes` on `Data`, `[UInt8]`, `String`; a
/// line of `LogLines`): read by index from 0, sliced without copying, compared and decoded in place. The
/// byte readers above this target (corpus blocks, spool records, results-log rows) are written against it,
/// so the raw memory they read is named here and in the recognizer's model only. A view must not outlive
/// the closure that lent it, as the raw buffer it wraps must not.
@usableFromInline @frozen package struct ByteView: RandomAccessCollection {
    /// The memory a view reads: for this target's own writers, readers and hashes (`withRaw`).
    @usableFromInline package typealias Raw = UnsafeRawBufferPointer

    @usableFromInline let raw: Raw

    @inlinable package init(_ raw: Raw) { self.raw = raw }

    /// A view of UTF-8 code units lent by `String.withUTF8` or `StaticString.withUTF8Buffer`.
    @inlinable package init(_ utf8: UnsafeBufferPointer<UInt8>) { raw = Raw(utf8) }

    @inlinable package var startIndex: Int { 0 }
    @inlinable package var endIndex: Int { raw.count }
    @inlinable package subscript(position: Int) -> UInt8 { raw[position] }

    /// The bytes in `range`, counted from 0 again.
    @inlinable package subscript(range: Range<Int>) -> ByteView {
        precondition(range.lowerBound >= 0 && range.upperBound <= raw.count, "a byte range outside the view")
        return ByteView(Raw(rebasing: raw[range]))
    }

    @inlinable package subscript(range: PartialRangeFrom<Int>) -> ByteView { self[range.lowerBound..<count] }
    @inlinable package subscript(range: PartialRangeUpTo<Int>) -> ByteView { self[0..<range.upperBound] }

    /// The bytes as UTF-8 text (invalid sequences replaced).
    @inlinable package var string: String { String(decoding: raw, as: UTF8.self) }

    /// The bytes in `range` as UTF-8 text.
    @inlinable package func string(_ range: Range<Int>) -> String { self[range].string }

    /// The little-endian integer whose bytes start at `offset` (any alignment).
    @inlinable package func load<T: FixedWidthInteger>(littleEndian type: T.Type, at offset: Int) -> T {
        precondition(offset >= 0 && offset + MemoryLayout<T>.size <= raw.count, "a load past the view")
        return T(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: T.self))
    }

    /// The value whose bytes start at `offset` (any alignment), as they are in memory.
    @inlinable package func load<T: BitwiseCopyable>(at offset: Int, as type: T.Type) -> T {
        precondition(offset >= 0 && offset + MemoryLayout<T>.size <= raw.count, "a load past the view")
        return raw.loadUnaligned(fromByteOffset: offset, as: T.self)
    }

    /// Whether the view holds exactly `bytes`.
    @inlinable package func equals(_ bytes: [UInt8]) -> Bool {
        bytes.count == raw.count && (raw.isEmpty || bytes.withUnsafeBytes { memcmp($0.baseAddress!, raw.baseAddress!, raw.count) == 0 })
    }

    /// Whether two views hold the same bytes.
    @inlinable package static func == (a: ByteView, b: ByteView) -> Bool {
        a.raw.count == b.raw.count && (a.raw.isEmpty || memcmp(a.raw.baseAddress!, b.raw.baseAddress!, a.raw.count) == 0)
    }

    /// Negative, zero or positive as these bytes come before, equal or after `other`'s, byte by byte
    /// (`memcmp`), a prefix first.
    @inlinable package func compare(_ other: ByteView) -> Int {
        let common = Swift.min(raw.count, other.raw.count)
        let order = common == 0 ? 0 : Int(memcmp(raw.baseAddress!, other.raw.baseAddress!, common))
        return order != 0 ? order : raw.count - other.raw.count
    }

    /// The first index of `byte` at or after `start`, found by `memchr`.
    @inlinable package func firstIndex(of byte: UInt8, from start: Int = 0) -> Int? {
        guard start < raw.count, let base = raw.baseAddress,
              let found = memchr(base + start, Int32(byte), raw.count - start) else { return nil }
        return UnsafeRawPointer(found) - base
    }

    /// The raw bytes, for the storage target's own writers and hashes.
    @inlinable package func withRaw<R>(_ body: (Raw) throws -> R) rethrows -> R { try body(raw) }

    @inlinable package func withContiguousStorageIfAvailable<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R? {
        try body(raw.assumingMemoryBound(to: UInt8.self))
    }
}

extension ContiguousBytes {
    /// The bytes lent as a view for the length of `body`.
    @inlinable package func withBytes<R>(_ body: (ByteView) throws -> R) rethrows -> R {
        try withUnsafeBytes { try body(ByteView($0)) }
    }
}

extension ArraySlice where Element == UInt8 {
    @inlinable package func withBytes<R>(_ body: (ByteView) throws -> R) rethrows -> R {
        try withUnsafeBytes { try body(ByteView($0)) }
    }
}

extension String {
    /// The string's UTF-8 lent as a view for the length of `body` (made contiguous first if it is not).
    @inlinable package mutating func withUTF8Bytes<R>(_ body: (ByteView) throws -> R) rethrows -> R {
        try withUTF8 { try body(ByteView($0)) }
    }
}

extension ByteSink {
    /// `value`'s 16 lowercase hex digits (`FNV1a64.hexDigit`), in one write.
    @inlinable package mutating func put(hex value: UInt64) {
        var digits: (UInt64, UInt64) = (0, 0)
        withUnsafeMutableBytes(of: &digits) { raw in
            for i in 0..<16 { raw[i] = FNV1a64.hexDigit(value, i) }
            put(ByteView(ByteView.Raw(raw)))
        }
    }
}
