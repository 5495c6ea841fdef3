/// An exact n-gram of up to five 16-bit symbols, used while training (the model itself stores hashes).
struct NGramKey: Hashable, Comparable, Sendable {
    /// Symbols 1–4 (first symbol in the low bits), 16 bits each; 0 where the n-gram is shorter.
    var lo: UInt64
    /// Symbol 5.
    var hi: UInt16

    static let root = NGramKey(lo: 0, hi: 0)

    init(lo: UInt64, hi: UInt16) {
        self.lo = lo
        self.hi = hi
    }

    init<C: Collection>(_ symbols: C) where C.Element == UInt32 {
        var lo: UInt64 = 0, hi: UInt16 = 0
        for (i, s) in symbols.enumerated() {
            if i < 4 { lo |= UInt64(s) << (16 * UInt64(i)) } else { hi = UInt16(s) }
        }
        self.init(lo: lo, hi: hi)
    }

    var symbols: [UInt32] {
        var out: [UInt32] = []
        for i in 0..<4 {
            let s = UInt32((lo >> (16 * UInt64(i))) & 0xFFFF)
            if s == 0 { return out }
            out.append(s)
        }
        if hi != 0 { out.append(UInt32(hi)) }
        return out
    }

    var order: Int {
        if hi != 0 { return 5 }
        return lo == 0 ? 0 : (64 - lo.leadingZeroBitCount + 15) / 16
    }

    /// The n-gram without its last symbol (the history).
    var prefix: NGramKey {
        let k = order
        if k == 5 { return NGramKey(lo: lo, hi: 0) }
        return NGramKey(lo: lo & ~(0xFFFF << (16 * UInt64(k - 1))), hi: 0)
    }

    /// The n-gram without its first symbol (the next lower order).
    var suffix: NGramKey { NGramKey(lo: (lo >> 16) | (UInt64(hi) << 48), hi: 0) }

    /// The hash the model table stores, computed from the last symbol backwards as at recognition time.
    var tableHash: UInt64 {
        var h = Hashing.seed
        for s in symbols.reversed() { h = Hashing.step(h, s) }
        return Hashing.finish(h)
    }

    static func < (a: NGramKey, b: NGramKey) -> Bool {
        let (oa, ob) = (a.order, b.order)
        if oa != ob { return oa < ob }
        return a.lo != b.lo ? a.lo < b.lo : a.hi < b.hi
    }
}
