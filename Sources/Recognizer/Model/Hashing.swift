/// The hash functions that place n-grams and words in the model's tables. Part of the file format:
/// changing them changes every model file.
enum Hashing {
    static let seed: UInt64 = 0x4C42_524D_0000_0001

    /// One step of the chained hash; n-grams are hashed from their last symbol backwards so that the
    /// hashes of all orders ending at one position come out of one pass.
    @inline(__always)
    static func step(_ h: UInt64, _ symbol: UInt32) -> UInt64 {
        var x = (h ^ UInt64(symbol)) &* 0x9E37_79B9_7F4A_7C15
        x ^= x >> 29
        return x
    }

    /// Final avalanche (splitmix64's finaliser).
    @inline(__always)
    static func finish(_ h: UInt64) -> UInt64 {
        var z = h
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Hash of a whole word (its folded scalars), used by the word table.
    @inline(__always)
    static func word<C: Collection>(_ scalars: C) -> UInt64 where C.Element == UInt32 {
        var h = seed ^ 0xABCD
        for v in scalars { h = step(h, v) }
        return finish(h)
    }
}
