import BenchSupport
import Foundation
import Items

/// 64-bit FNV-1a: the content hashes of the results log (items and the recognizer model), chosen for
/// speed — SHA-256 of the 40 MB model cost more than detecting 20,000 items. Not cryptographic: it
/// guards against edits, not against an adversary.
struct FNV1a64 {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    mutating func add(_ bytes: UnsafeRawBufferPointer) {
        var hash = value
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        value = hash
    }

    mutating func add(_ text: String) {
        var text = text
        text.withUTF8 { add(UnsafeRawBufferPointer($0)) }
    }

    /// A byte no text field contains, between fields, so "a"+"bc" ≠ "ab"+"c".
    mutating func separate() {
        value ^= 0x1F
        value &*= 0x0000_0100_0000_01b3
    }

    var hex: String { Self.hex(value) }

    /// `value` as 16 lowercase hex digits.
    static func hex(_ value: UInt64) -> String {
        String(unsafeUninitializedCapacity: 16) { hex(value, into: $0) }
    }

    /// `value`'s 16 lowercase hex digits written at the start of `buffer` (at least 16 bytes); returns 16.
    @inline(__always) static func hex(_ value: UInt64, into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int {
        for i in 0..<16 {
            let digit = UInt8((value >> UInt64(60 - 4 * i)) & 0xF)
            buffer[i] = digit < 10 ? 0x30 + digit : 0x57 + digit  // 0-9, a-f
        }
        return 16
    }
}

/// The hash of what an item's results depend on — gold language, tags and text — written beside each
/// logged result so that `--resume` notices an item whose content changed under the same id. Kept as its
/// number while results are made (`value`), written as hex (`of`) where it is text.
enum ItemFingerprint {
    static func of(_ item: CorpusItem) -> String {
        FNV1a64.hex(value(item, sortedTags: item.sortedTags))
    }

    /// The fingerprint's number, with the item's tags sorted already.
    static func value(_ item: CorpusItem, sortedTags: [String]) -> UInt64 {
        value(lang: item.lang, sortedTags: sortedTags, text: item.text)
    }

    /// The fingerprint's number from the fields it covers.
    @inline(__always)
    static func value(lang: LanguageCode, sortedTags: [String], text: String) -> UInt64 {
        var hash = FNV1a64()
        hash.add(lang.identifier)
        hash.separate()
        for tag in sortedTags {
            hash.add(tag)
            hash.separate()
        }
        hash.add(text)
        hash.separate()
        return hash.value
    }
}
