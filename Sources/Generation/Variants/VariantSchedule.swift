import Corpus
import Support

/// Counterbalanced variant order per item: within each language a seeded shuffle of the items gives
/// the k-th item the variants rotated by k, reversed for every other round of rotations, and each
/// repeat moves an item on by one. Every variant runs in every position equally often (all orders of
/// three variants over six items), so none always runs on a warmer machine or right after another.
package struct VariantSchedule: Sendable {
    private var position: [String: Int]
    package let count: Int

    package init(items: [CorpusItem], variants: Int, seed: UInt64) {
        count = max(1, variants)
        var generator = SplitMix64(seed: seed ^ 0x5641_5249_414E_5453)  // "VARIANTS": not the route schedule's draws
        var position: [String: Int] = [:]
        let byLanguage = Dictionary(grouping: items, by: { $0.lang.identifier })
        for lang in byLanguage.keys.sorted() {
            for (k, id) in byLanguage[lang]!.map(\.id).sorted().shuffled(using: &generator).enumerated() { position[id] = k }
        }
        self.position = position
    }

    /// The variant indices in the order `item` runs them on repeat `repeatIndex`.
    package func order(item: String, repeatIndex: Int) -> [Int] {
        guard count > 1 else { return [0] }
        let k = (position[item] ?? 0) + repeatIndex
        let rotated = (0..<count).map { ($0 + k) % count }
        return (k / count) % 2 == 1 ? rotated.reversed() : rotated
    }
}
