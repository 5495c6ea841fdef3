/// Han-only runs (Chinese, or Japanese kanji compounds without kana) have no spaces, so a run such as
/// 你好世界 would be scored as one long unknown word by the character LM alone, where the word lists say
/// nothing. We split such a run into words first — greedy longest match against every language's word
/// list, at most `maxWord` characters, an unmatched character standing alone — and score each word, so
/// common Chinese-only (or Japanese-only) words and characters carry their list frequency.
/// Runs with kana stay whole (kana marks Japanese; its char LM handles okurigana).
enum HanSegmentation {
    static let maxWord = 4

    /// Whether a scalar is a Han ideograph (not kana, not the prolonged sound mark).
    @inline(__always)
    static func isHan(_ v: UInt32) -> Bool {
        (0x4E00...0x9FFF).contains(v) || (0x3400...0x4DBF).contains(v) || (0xF900...0xFAFF).contains(v)
            || (0x20000...0x2FA1F).contains(v)
    }

    /// Calls `body` with each word of a Han-only run, in order; any other run is one word.
    static func forEachWord(_ word: UnsafeBufferPointer<UInt32>, words: WordTable,
                            _ body: (UnsafeBufferPointer<UInt32>) -> Void) {
        guard word.count > 1, word.allSatisfy(isHan) else { return body(word) }
        var start = 0
        while start < word.count {
            var length = 1
            for n in stride(from: min(maxWord, word.count - start), to: 1, by: -1) {
                let piece = UnsafeBufferPointer(rebasing: word[start..<(start + n)])
                if words.contains(hash: Hashing.word(piece)) {
                    length = n
                    break
                }
            }
            body(UnsafeBufferPointer(rebasing: word[start..<(start + length)]))
            start += length
        }
    }
}
