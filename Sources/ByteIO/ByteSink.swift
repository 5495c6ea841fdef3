import Foundation

/// Where the per-item output encoders put their bytes: a growing `[UInt8]` (results encoded ahead in
/// the detection tasks, tests), or a `ByteCursor` into a file writer's buffer with the room reserved
/// beforehand (the recording thread, where `Array.append`'s checks per call were a large share of the
/// encoding). The encoders are generic over it and specialised for both.
@usableFromInline package protocol ByteSink {
    mutating func put(_ byte: UInt8)
    mutating func put(_ bytes: ByteView)
}

extension ByteSink {
    @inlinable package mutating func put(_ bytes: [UInt8]) {
        bytes.withBytes { put($0) }
    }

    @inlinable package mutating func put(_ bytes: ArraySlice<UInt8>) {
        bytes.withBytes { put($0) }
    }

    /// The UTF-8 of `text`, without an intermediate `String` or `Data`.
    @inlinable package mutating func put(utf8 text: String) {
        // Native strings (all of ours) lend their bytes without a copy; a bridged one is copied first.
        if text.utf8.withContiguousStorageIfAvailable({ put(ByteView($0)) }) == nil {
            var text = text
            text.withUTF8 { put(ByteView($0)) }
        }
    }

    /// A literal's bytes (keys and punctuation), read in place.
    @inlinable package mutating func put(literal text: StaticString) {
        text.withUTF8Buffer { put(ByteView($0)) }
    }
}

extension Array: ByteSink where Element == UInt8 {
    @inlinable package mutating func put(_ byte: UInt8) { append(byte) }
    @inlinable package mutating func put(_ bytes: ByteView) { bytes.withRaw { append(contentsOf: $0) } }
}

/// Bytes written at a pointer into memory its owner reserved (`BufferedFileWriter.write(bound:_:)`):
/// a store per byte, and a check that the writes stay within the reservation (a wrong bound stops the
/// program rather than writing past it).
@usableFromInline package struct ByteCursor: ByteSink {
    @usableFromInline var position: UnsafeMutablePointer<UInt8>
    @usableFromInline let end: UnsafeMutablePointer<UInt8>

    @inlinable package init(start: UnsafeMutablePointer<UInt8>, end: UnsafeMutablePointer<UInt8>) {
        position = start
        self.end = end
    }

    @inlinable package mutating func put(_ byte: UInt8) {
        precondition(position < end, "an encoder wrote more than the bytes it reserved")
        position.initialize(to: byte)
        position += 1
    }

    @inlinable package mutating func put(_ bytes: ByteView) {
        precondition(end - position >= bytes.count, "an encoder wrote more than the bytes it reserved")
        bytes.withRaw { raw in
            guard let base = raw.baseAddress else { return }
            UnsafeMutableRawPointer(position).copyMemory(from: base, byteCount: raw.count)
        }
        position += bytes.count
    }
}
