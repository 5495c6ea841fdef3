/// Appending text to a byte buffer without an intermediate `String` or `Data`: the per-item output
/// writers assemble each line this way.
extension Array where Element == UInt8 {
    @inline(__always) mutating func append(utf8 text: String) {
        var text = text
        text.withUTF8 { append(contentsOf: $0) }
    }
}
