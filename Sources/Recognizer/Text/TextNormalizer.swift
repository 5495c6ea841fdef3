import Foundation

/// Text after normalisation: case-folded scalars split into letter tokens, each tagged with its script.
struct NormalizedText: Sendable {
    /// One word: a run of letters of one script (apostrophes between letters and combining marks included).
    struct Token: Sendable, Equatable {
        var script: Script
        var range: Range<Int>
    }

    var scalars: [UInt32] = []
    var tokens: [Token] = []
}

/// Normalises text the way the training lists were normalised: NFC, full case folding, ’/ʼ → ', and
/// URLs, e-mail addresses, @mentions, markup tags and character entities removed before tokenising.
enum TextNormalizer {
    static func normalize(_ text: String) -> NormalizedText {
        var input: [UInt32] = []
        input.reserveCapacity(text.utf8.count)
        var needsNFC = false, hasMarkup = false
        for scalar in text.unicodeScalars {
            let v = scalar.value
            if v >= 0x0300 && Script.isWordMark(v) { needsNFC = true }
            if v == 0x3C || v == 0x26 || v == 0x40 || v == 0x3A || v == 0x2E { hasMarkup = true }
            input.append(v)
        }
        if needsNFC {
            input = Array(text.precomposedStringWithCanonicalMapping.unicodeScalars.lazy.map(\.value))
        }
        if hasMarkup { removeMarkupAndAddresses(&input) }
        var result = NormalizedText()
        result.scalars.reserveCapacity(input.count)
        var current: NormalizedText.Token? = nil
        var pendingApostrophe = false
        func close() {
            if let token = current { result.tokens.append(token) }
            current = nil
        }
        for raw in input {
            if raw == 0x27 || raw == 0x2019 || raw == 0x02BC {
                // An apostrophe belongs to the word only when a letter of the same word follows.
                if current != nil && !pendingApostrophe { pendingApostrophe = true } else { close(); pendingApostrophe = false }
                continue
            }
            if Script.isWordMark(raw), current != nil, !pendingApostrophe {
                result.scalars.append(raw)
                current!.range = current!.range.lowerBound..<result.scalars.count
                continue
            }
            guard let script = Script.of(raw) else {
                close(); pendingApostrophe = false
                continue
            }
            if let token = current, token.script != script { close(); pendingApostrophe = false }
            if current == nil { pendingApostrophe = false }
            if pendingApostrophe {
                result.scalars.append(0x27)
                pendingApostrophe = false
            }
            let start = current?.range.lowerBound ?? result.scalars.count
            CaseFolding.append(raw, to: &result.scalars)
            current = NormalizedText.Token(script: script, range: start..<result.scalars.count)
        }
        close()
        return result
    }

    /// Blanks URLs, e-mail addresses and @mentions (whole whitespace-delimited chunks), markup tags and
    /// character entities, so that they never count as words.
    static func removeMarkupAndAddresses(_ s: inout [UInt32]) {
        let space: UInt32 = 0x20
        var i = 0
        while i < s.count {
            if s[i] == 0x3C, i + 1 < s.count, isTagStart(s[i + 1]),
               let end = s[(i + 1)..<min(s.count, i + 512)].firstIndex(of: 0x3E) {
                for j in i...end { s[j] = space }
                i = end + 1
                continue
            }
            if s[i] == 0x26, let end = s[(i + 1)..<min(s.count, i + 12)].firstIndex(of: 0x3B),
               end > i + 1, s[(i + 1)..<end].allSatisfy({ isASCIIAlphanumeric($0) || $0 == 0x23 }) {
                for j in i...end { s[j] = space }
                i = end + 1
                continue
            }
            i += 1
        }
        var start = 0
        while start < s.count {
            while start < s.count, isSpace(s[start]) { start += 1 }
            var end = start
            while end < s.count, !isSpace(s[end]) { end += 1 }
            if end > start, isAddress(s[start..<end]) {
                for j in start..<end { s[j] = space }
            }
            start = end
        }
    }

    private static func isAddress(_ chunk: ArraySlice<UInt32>) -> Bool {
        if chunk.contains(0x40) { return true }  // e-mail address or @mention
        guard chunk.count >= 3 else { return false }
        let start = chunk.startIndex
        if chunk.count >= 4, chunk[start] | 0x20 == 0x77, chunk[start + 1] | 0x20 == 0x77,
           chunk[start + 2] | 0x20 == 0x77, chunk[start + 3] == 0x2E { return true }  // "www."
        var i = chunk.startIndex
        while i + 2 < chunk.endIndex {
            if chunk[i] == 0x3A, chunk[i + 1] == 0x2F, chunk[i + 2] == 0x2F { return true }  // "://"
            i += 1
        }
        return false
    }

    @inline(__always) private static func isTagStart(_ v: UInt32) -> Bool {
        v == 0x2F || v == 0x21 || ((v | 0x20) >= 0x61 && (v | 0x20) <= 0x7A)
    }

    @inline(__always) private static func isASCIIAlphanumeric(_ v: UInt32) -> Bool {
        ((v | 0x20) >= 0x61 && (v | 0x20) <= 0x7A) || (v >= 0x30 && v <= 0x39)
    }

    @inline(__always) private static func isSpace(_ v: UInt32) -> Bool {
        v == 0x20 || v == 0x09 || v == 0x0A || v == 0x0D || v == 0xA0 || v == 0x3000 || (v >= 0x2000 && v <= 0x200B)
    }
}
