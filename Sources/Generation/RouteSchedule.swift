import Corpus
import Support

/// Counterbalanced route order: within each language, a seeded shuffle of the items gives half of
/// them direct first and half pivot first, and every repeat flips each item's order, so neither
/// route systematically runs on a warmer machine or after the other.
package struct RouteSchedule: Sendable {
    private var pivotFirst: Set<String>

    package init(items: [CorpusItem], seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        var pivotFirst = Set<String>()
        let byLanguage = Dictionary(grouping: items, by: { $0.lang.identifier })
        for lang in byLanguage.keys.sorted() {
            let shuffled = byLanguage[lang]!.map(\.id).sorted().shuffled(using: &generator)
            for (position, id) in shuffled.enumerated() where position % 2 == 1 { pivotFirst.insert(id) }
        }
        self.pivotFirst = pivotFirst
    }

    /// The order of `item`'s routes on repeat `repeatIndex`.
    package func order(item: String, repeatIndex: Int) -> RouteOrder {
        (pivotFirst.contains(item) != (repeatIndex % 2 == 1)) ? .pivotFirst : .directFirst
    }

    /// `routes` in the scheduled order (one route runs alone).
    package func arrange(_ routes: [Route], item: String, repeatIndex: Int) -> (routes: [Route], order: RouteOrder) {
        guard routes.count > 1 else { return (routes, .single) }
        let order = order(item: item, repeatIndex: repeatIndex)
        let sorted = routes.sorted()  // direct, pivot
        return (order == .pivotFirst ? sorted.reversed() : sorted, order)
    }
}
