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

    static func level(probability p: Double) -> UInt32 {
        UInt32(max(0, min(1023, (-log10(p) * levelsPerDecade).rounded())))
    }

    /// Calls `body(language, log P_list)` for each language whose list holds the word (a language can be
    /// reported twice when a form set also matches; callers keep the larger value).
    @inline(__always)
    func forEachPosting(hash: UInt64, _ body: (Int, Float) -> Void) {
        for set in formSets where set.contains(hash: hash) {
            body(set.language, -Float(set.level) * Float(2.302585093 / Self.levelsPerDecade))
        }
        let fp = Self.fingerprint(hash)
        let capacity = self.capacity
        var i = HashSlots.home(hash, capacity: capacity)
        let s = slots.pointer
        while true {
            let posting = s[i]
            if posting == 0 { return }
            if posting >> 16 == fp {
                let level = Float(posting & 0x3FF)
                body(Int((posting >> 10) & 0x3F), -level * Float(2.302585093 / Self.levelsPerDecade))
            }
            i += 1
            if i == capacity { i = 0 }
        }
    }

    /// Builds the table from postings in the given order (callers sort them for a reproducible layout).
    static func build(postings: [(hash: UInt64, language: Int, level: UInt32)], formSets: [FormSet] = []) -> WordTable {
        let capacity = HashSlots.capacity(for: postings.count)
        var slots = [UInt32](repeating: 0, count: capacity)
        for p in postings {
            var i = HashSlots.home(p.hash, capacity: capacity)
            while slots[i] != 0 { i = i + 1 == capacity ? 0 : i + 1 }
            slots[i] = fingerprint(p.hash) << 16 | UInt32(p.language) << 10 | p.level
        }
        return WordTable(slots: FixedBuffer(slots), formSets: formSets)
    }
}
