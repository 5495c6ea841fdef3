import Support
import Foundation
import Corpus

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
