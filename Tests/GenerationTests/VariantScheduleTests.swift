@testable import Generation
import Corpus
import Testing

/// Counterbalanced variant order, checked exhaustively over small corpora.
struct VariantScheduleTests {
    @Test(arguments: [2, 3, 4])
    func everyVariantRunsInEveryPositionEquallyOften(variants: Int) {
        let count = 2 * variants  // one full round of rotations, then the reversed round
        let items = RouteScheduleTests.items(["en": count, "ru": count])
        let schedule = VariantSchedule(items: items, variants: variants, seed: 42)
        for lang in ["en", "ru"] {
            let orders = items.filter { $0.lang.identifier == lang }.map { schedule.order(item: $0.id, repeatIndex: 0) }
            #expect(orders.allSatisfy { $0.sorted() == Array(0..<variants) })
            for position in 0..<variants {
                for variant in 0..<variants {
                    #expect(orders.filter { $0[position] == variant }.count == 2, "\(lang): variant \(variant) at \(position)")
                }
            }
            // No variant always runs right after another: every ordered pair occurs both ways round.
            for a in 0..<variants { for b in 0..<variants where a != b {
                #expect(orders.contains { zip($0, $0.dropFirst()).contains { $0 == (a, b) } } == orders.contains { zip($0, $0.dropFirst()).contains { $0 == (b, a) } })
            } }
        }
    }

    @Test func repeatsMoveTheOrderOnAndOneVariantIsAlone() {
        let items = RouteScheduleTests.items(["en": 6])
        let schedule = VariantSchedule(items: items, variants: 3, seed: 7)
        for item in items { #expect(schedule.order(item: item.id, repeatIndex: 0) != schedule.order(item: item.id, repeatIndex: 1)) }
        #expect(VariantSchedule(items: items, variants: 1, seed: 7).order(item: "en-0", repeatIndex: 3) == [0])
        let again = VariantSchedule(items: items, variants: 3, seed: 7)
        #expect(items.map { schedule.order(item: $0.id, repeatIndex: 0) } == items.map { again.order(item: $0.id, repeatIndex: 0) })
    }
}
