@testable import Generation
@testable import Corpus
import Testing

/// Counterbalanced route order, checked exhaustively over small corpora.
struct RouteScheduleTests {
    static func items(_ counts: [String: Int]) -> [CorpusItem] {
        counts.sorted { $0.key < $1.key }.flatMap { lang, count in
            (0..<count).map { CorpusItem(id: "\(lang)-\($0)", lang: LanguageCode(normalised: lang), text: "x") }
        }
    }

    @Test(arguments: [1, 2, 7, 12])
    func eachLanguageIsBalancedAndRepeatsFlip(count: Int) {
        let items = Self.items(["en": count, "ru": count + 1])
        let schedule = RouteSchedule(items: items, seed: 42)
        for lang in ["en", "ru"] {
            let own = items.filter { $0.lang.identifier == lang }
            let pivotFirst = own.filter { schedule.order(item: $0.id, repeatIndex: 0) == .pivotFirst }.count
            #expect(abs(own.count - 2 * pivotFirst) <= 1, "\(lang): \(pivotFirst) of \(own.count) pivot first")
            for item in own {
                #expect(schedule.order(item: item.id, repeatIndex: 0) != schedule.order(item: item.id, repeatIndex: 1))
            }
        }
    }

    @Test func seededAndRecorded() {
        let items = Self.items(["en": 12])
        let a = RouteSchedule(items: items, seed: 1), b = RouteSchedule(items: items, seed: 1), c = RouteSchedule(items: items, seed: 2)
        let orders = { (s: RouteSchedule) in items.map { s.order(item: $0.id, repeatIndex: 0) } }
        #expect(orders(a) == orders(b))
        #expect(orders(a) != orders(c))
        #expect(a.arrange([.direct, .pivot], item: "en-0", repeatIndex: 0).routes.count == 2)
        #expect(a.arrange([.pivot], item: "en-0", repeatIndex: 0).order == .single)
    }
}
