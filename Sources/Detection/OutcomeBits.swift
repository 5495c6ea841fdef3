/// Two bits per item for one config — has a result, and is it correct — indexed by the item's position
/// in the run: what paired comparisons and the `flip` column need, in 1/4 byte per item.
struct OutcomeBits: Sendable {
    private var present: [UInt64] = []
    private var correct: [UInt64] = []

    init(capacity: Int = 0) {
        present.reserveCapacity((capacity + 63) / 64)
        correct.reserveCapacity((capacity + 63) / 64)
    }

    mutating func set(_ index: Int, correct isCorrect: Bool) {
        let word = index >> 6, bit = UInt64(1) << UInt64(index & 63)
        while present.count <= word {
            present.append(0)
            correct.append(0)
        }
        present[word] |= bit
        if isCorrect { correct[word] |= bit } else { correct[word] &= ~bit }
    }

    /// Nil when the item has no result.
    func outcome(_ index: Int) -> Bool? {
        let word = index >> 6, bit = UInt64(1) << UInt64(index & 63)
        guard word < present.count, present[word] & bit != 0 else { return nil }
        return correct[word] & bit != 0
    }

    /// Items with a result in both; of those, right only in `other` (fixed) and only in `self` (broken).
    func paired(with other: OutcomeBits) -> (n: Int, fixed: Int, broken: Int) {
        var n = 0, fixed = 0, broken = 0
        for word in 0..<min(present.count, other.present.count) {
            let both = present[word] & other.present[word]
            n += both.nonzeroBitCount
            fixed += (both & other.correct[word] & ~correct[word]).nonzeroBitCount
            broken += (both & correct[word] & ~other.correct[word]).nonzeroBitCount
        }
        return (n, fixed, broken)
    }

    /// Items with a result in either.
    func union(_ other: OutcomeBits) -> OutcomeBits {
        var merged = self
        for word in 0..<other.present.count {
            if word < merged.present.count { merged.present[word] |= other.present[word] } else {
                merged.present.append(other.present[word])
                merged.correct.append(0)
            }
        }
        return merged
    }

    var count: Int { present.reduce(0) { $0 + $1.nonzeroBitCount } }
}
