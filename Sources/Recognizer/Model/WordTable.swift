import Foundation

/// The word-list part of one script's model: for each (word, language) pair of the training lists a
/// 32-bit posting `fingerprint:16 | language:6 | level:10` in an open-addressing table keyed by the word's
/// hash. All postings of a word sit in one probe run; a lookup collects those whose fingerprint matches.
/// The level encodes the word's list probability as 10^(−level/64). Forms without a frequency of their own
/// live in compact `FormSet`s beside the table.
struct WordTable: Sendable {
    let slots: FixedBuffer<UInt32>
    var formSets: [FormSet] = []

    static let levelsPerDecade: Double = 64

    var capacity: Int { slots.count }

    @inline(__always)
    static func fingerprint(_ hash: UInt64) -> UInt32 {
        let f = UInt32(truncatingIfNeeded: hash >> 48)
        return f == 0 ? 1 : f
    }

    /// Natural log of the list probability a level stands for.
    @inline(__always)
    static func logProbability(level: UInt32) -> Float {
        -Float(level) * Float(2.302585093 / levelsPerDecade)
    }

    static func level(probability p: Double) -> UInt32 {
        UInt32(max(0, min(1023, (-log10(p) * levelsPerDecade).rounded())))
    }

    /// Calls `body(language, log P_list)` for each language whose list holds the word (a language can be
    /// reported twice when a form set also matches; callers keep the larger value).
    @inline(__always)
    func forEachPosting(hash: UInt64, _ body: (Int, Float) -> Void) {
        for set in formSets where set.contains(hash: hash) {
            body(set.language, Self.logProbability(level: set.level))
        }
        let fp = Self.fingerprint(hash)
        let s = slots.pointer
        HashSlots.probe(hash, capacity: capacity) { i in
            let posting = s[i]
            if posting == 0 { return false }
            if posting >> 16 == fp {
                body(Int((posting >> 10) & 0x3F), Self.logProbability(level: posting & 0x3FF))
            }
            return true
        }
    }

    /// Whether any language's list holds the word.
    @inline(__always)
    func contains(hash: UInt64) -> Bool {
        var found = false
        forEachPosting(hash: hash) { _, _ in found = true }
        return found
    }

    /// Builds the table from postings in the given order (callers sort them for a reproducible layout).
    static func build(postings: [(hash: UInt64, language: Int, level: UInt32)], formSets: [FormSet] = []) -> WordTable {
        let capacity = HashSlots.capacity(for: postings.count)
        var slots = [UInt32](repeating: 0, count: capacity)
        for p in postings {
            let i = HashSlots.freeSlot(p.hash, in: slots)
            slots[i] = fingerprint(p.hash) << 16 | UInt32(p.language) << 10 | p.level
        }
        return WordTable(slots: FixedBuffer(slots), formSets: formSets)
    }
}
