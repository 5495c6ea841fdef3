/// A 64-bit FNV-1a hash of what an item's results depend on — gold language, tags and text — written
/// beside each logged result so that `--resume` notices an item whose content changed under the same id.
/// Not cryptographic: it guards against edits, not against an adversary.
enum ItemFingerprint {
    static func of(_ item: CorpusItem) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix(_ text: String) {
            for byte in text.utf8 {
                hash ^= UInt64(byte)
                hash &*= 0x0000_0100_0000_01b3
            }
            hash ^= 0x1F  // a separator no field contains, so "a"+"bc" ≠ "ab"+"c"
            hash &*= 0x0000_0100_0000_01b3
        }
        mix(item.lang.identifier)
        for tag in item.sortedTags { mix(tag) }
        mix(item.text)
        return hex(hash)
    }

    static func hex(_ value: UInt64) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var bytes = [UInt8](repeating: 0, count: 16)
        for i in 0..<16 { bytes[i] = digits[Int((value >> UInt64(60 - 4 * i)) & 0xF)] }
        return String(decoding: bytes, as: UTF8.self)
    }
}
