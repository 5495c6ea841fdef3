/// Appending text to a byte buffer without an intermediate `String` or `Data`: the per-item output
/// writers assemble each line this way.
extension Array where Element == UInt8 {
    @inline(__always) mutating func append(utf8 text: String) {
        // Native strings (all of ours) lend their bytes without a copy; a bridged one is copied first.
        if text.utf8.withContiguousStorageIfAvailable({ append(contentsOf: $0) }) == nil {
            var text = text
            text.withUTF8 { append(contentsOf: $0) }
        }
    }

    /// A literal's bytes (keys and punctuation), read in place: no array to initialise once and retain.
    @inline(__always) mutating func append(literal text: StaticString) {
        text.withUTF8Buffer { append(contentsOf: $0) }
    }
}
