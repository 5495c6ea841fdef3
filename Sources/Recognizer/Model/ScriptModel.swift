import Foundation

/// The trained model of one script (Latin, Cyrillic or CJK): its languages, alphabet, character n-gram
/// table and word table. A class: recognition on several threads reads one shared instance (a struct
/// copied out of the model per text retained each of its arrays, on counts all threads write).
final class ScriptModel: Sendable {
    let script: Script
    /// Language codes, in row order of both tables.
    let languages: [String]
    /// The alphabet, sorted; symbol ids are 3 + index (1 is the word boundary, 2 any other letter).
    let alphabet: [UInt32]
    let ngrams: NGramTable
    let words: WordTable

    static let boundary: UInt32 = 1
    static let otherLetter: UInt32 = 2

    private let smallSymbols: [UInt16]
    private let largeSymbols: [UInt32: UInt16]
    /// Pointers into `ngrams` (orders 1…5), valid as long as this model holds `ngrams`.
    private let views: [NGramTable.View]

    init(script: Script, languages: [String], alphabet: [UInt32], ngrams: NGramTable, words: WordTable) {
        self.script = script
        self.languages = languages
        self.alphabet = alphabet
        self.ngrams = ngrams
        self.words = words
        var small = [UInt16](repeating: UInt16(Self.otherLetter), count: 0x0530)
        var large: [UInt32: UInt16] = [:]
        for (i, v) in alphabet.enumerated() {
            if v < 0x0530 { small[Int(v)] = UInt16(i + 3) } else { large[v] = UInt16(i + 3) }
        }
        smallSymbols = small
        largeSymbols = large
        views = ngrams.orders.map(\.view)
    }

    var width: Int { languages.count }

    @inline(__always)
    func symbol(_ v: UInt32) -> UInt32 {
        v < 0x0530 ? UInt32(smallSymbols[Int(v)]) : UInt32(largeSymbols[v] ?? UInt16(Self.otherLetter))
    }

    /// Per-language character-LM log-likelihood (nats) of one word, boundary marks included, written to
    /// `out[0..<width]`. At each position the longest kept n-gram gives the interpolated log P(c | h), plus
    /// the back-off weights of the longer histories that were seen but not followed by c.
    func charLogLikelihood(_ word: UnsafeBufferPointer<UInt32>, into out: UnsafeMutablePointer<Float>) {
        let w = width
        for l in 0..<w { out[l] = 0 }
        let n = word.count + 2
        views.withUnsafeBufferPointer { tables in
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: n) { sym in
            sym[0] = Self.boundary
            for i in 0..<word.count { sym[i + 1] = symbol(word[i]) }
            sym[n - 1] = Self.boundary
            var prev: (Int, Int, Int, Int, Int) = (-1, -1, -1, -1, -1)
            prev.1 = tables[0].slot(of: Hashing.finish(Hashing.step(Hashing.seed, Self.boundary)))
            for i in 1..<n {
                var cur: (Int, Int, Int, Int, Int) = (-1, -1, -1, -1, -1)
                var h = Hashing.seed
                var found = 0
                for k in 1...min(NGramTable.maxOrder, i + 1) {
                    h = Hashing.step(h, sym[i - k + 1])
                    let s = tables[k - 1].slot(of: Hashing.finish(h))
                    if s < 0 { break }
                    Self.set(&cur, k, s)
                    found = k
                }
                if found == 0 { prev = cur; continue }
                let logp = tables[found - 1].logp + Self.get(cur, found) * w
                for l in 0..<w { out[l] -= Float(logp[l]) * NGramTable.logpStep }
                let top = min(4, i)
                if found <= top {
                    for j in found...top {
                        let hs = Self.get(prev, j)
                        if hs < 0 { continue }
                        let bow = tables[j - 1].bow + hs * w
                        for l in 0..<w { out[l] -= Float(bow[l]) * NGramTable.bowStep }
                    }
                }
                prev = cur
            }
        }
        }
    }

    @inline(__always)
    private static func set(_ t: inout (Int, Int, Int, Int, Int), _ k: Int, _ v: Int) {
        switch k {
        case 1: t.1 = v
        case 2: t.2 = v
        case 3: t.3 = v
        case 4: t.4 = v
        default: t.0 = v
        }
    }

    @inline(__always)
    private static func get(_ t: (Int, Int, Int, Int, Int), _ k: Int) -> Int {
        switch k {
        case 1: t.1
        case 2: t.2
        case 3: t.3
        case 4: t.4
        default: t.0
        }
    }

    /// The two terms of one word's per-language log-likelihood: log((1−λ)·P_charLM) into `char` and
    /// log(λ·P_list) into `list` (−∞ where the language's list lacks the word).
    func wordTerms(_ word: UnsafeBufferPointer<UInt32>, lambda: Float,
                   char: UnsafeMutablePointer<Float>, list: UnsafeMutablePointer<Float>) {
        charLogLikelihood(word, into: char)
        let logLambda = log(lambda), logRest = log(1 - lambda)
        for l in 0..<width {
            char[l] += logRest
            list[l] = -.infinity
        }
        words.forEachPosting(hash: Hashing.word(word)) { language, listLogP in
            list[language] = max(list[language], logLambda + listLogP)
        }
    }

    /// Per-language log-likelihood of one word: log(λ·P_list + e^u·(1−λ)·P_charLM), written to `out`, where
    /// u is the language's `unlisted` offset (a per-language λ: how much a word its list lacks is worth).
    func wordLogLikelihood(_ word: UnsafeBufferPointer<UInt32>, lambda: Float, unlisted: [Float],
                           into out: UnsafeMutablePointer<Float>) {
        withUnsafeTemporaryAllocation(of: Float.self, capacity: width) { list in
            wordTerms(word, lambda: lambda, char: out, list: list.baseAddress!)
            for l in 0..<width {
                out[l] += unlisted[l]
                if list[l] > -.infinity { out[l] = Self.logAddExp(list[l], out[l]) }
            }
        }
    }

    @inline(__always)
    static func logAddExp(_ a: Float, _ b: Float) -> Float {
        max(a, b) + log1p(exp(-abs(a - b)))
    }
}
