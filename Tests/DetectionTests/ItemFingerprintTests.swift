import Support
@testable import Detection
@testable import Corpus
import Testing

/// The results log's content hashes: FNV-1a 64 as published, and fingerprints that change with
/// everything a result depends on.
struct ItemFingerprintTests {
    /// Reference values of 64-bit FNV-1a (offset basis; "a"; "foobar").
    @Test(arguments: [("", "cbf29ce484222325"), ("a", "af63dc4c8601ec8c"), ("foobar", "85944171f73967e8")])
    func fnv1a64MatchesTheReference(_ text: String, _ hex: String) {
        var hash = FNV1a64()
        hash.add(text)
        #expect(hash.hex == hex)
    }

    /// Sixteen digits whatever the value: leading zeros kept.
    @Test(arguments: [(UInt64(0), "0000000000000000"), (0xff, "00000000000000ff"), (0x0123_4567_89ab_cdef, "0123456789abcdef"), (.max, "ffffffffffffffff")])
    func hexHasSixteenDigits(_ value: UInt64, _ hex: String) {
        #expect(FNV1a64.hex(value) == hex)
    }

    @Test func fingerprintFollowsLanguageTagsAndText() {
        let item = CorpusItem(id: "1", lang: LanguageCode(normalised: "ru"), text: "дом", tags: ["a", "b"])
        var other = item
        other.id = "2"
        #expect(ItemFingerprint.of(other) == ItemFingerprint.of(item), "the id is not content")
        #expect(FNV1a64.hex(ItemFingerprint.value(item, sortedTags: ["a", "b"])) == ItemFingerprint.of(item))
        for change in [{ (x: inout CorpusItem) in x.text = "дим" }, { $0.lang = LanguageCode(normalised: "uk") }, { $0.tags = ["a"] }] {
            var changed = item
            change(&changed)
            #expect(ItemFingerprint.of(changed) != ItemFingerprint.of(item))
        }
    }
}
