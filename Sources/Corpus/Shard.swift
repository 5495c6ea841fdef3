import Support

/// A deterministic slice of a corpus: shard K of N takes the items whose id hashes to K−1 mod N.
/// Hashing ids (not positions) keeps an item in the same shard when others are added or removed.
public struct Shard: Sendable, Hashable, Codable, CustomStringConvertible {
    package var index: Int
    package var count: Int

    /// Parses `K/N` with 1 ≤ K ≤ N.
    package init(_ text: String) throws {
        let parts = text.split(separator: "/")
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]), n >= 1, (1...n).contains(k) else {
            throw ConfigurationError.invalidValue(name: "shard", value: text, reason: "expected K/N with 1 ≤ K ≤ N, e.g. 2/4")
        }
        index = k
        count = n
    }

    public var description: String { "\(index)/\(count)" }

    package func contains(_ id: String) -> Bool {
        var hash = FNV1a64()
        hash.add(id)
        return Int(hash.value % UInt64(count)) == index - 1
    }

    package func apply(_ corpus: Corpus) -> Corpus {
        Corpus(items: corpus.items.filter { contains($0.id) }, sources: corpus.sources, shard: self)
    }
}
