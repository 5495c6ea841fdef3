@testable import Generation
import Testing

/// The pool's dealing: deterministic, every repeat of an item on one server, and a failed server's units
/// (the one in flight included) dealt to the live ones with nothing lost or doubled.
struct PoolDealerTests {
    /// Drains every live member's queue: (member, unit) in the order taken.
    static func drain(_ dealer: inout PoolDealer) -> [(Int, PoolDealer.Unit)] {
        var out: [(Int, PoolDealer.Unit)] = []
        for member in dealer.live.indices { while let unit = dealer.next(for: member) { out.append((member, unit)) } }
        return out
    }

    @Test func itemsAreDealtByOrderModuloServersWithEveryRepeatTogether() {
        var dealer = PoolDealer(items: 5, repeats: 2, members: 2)
        let taken = Self.drain(&dealer)
        #expect(taken.count == 10)
        for (member, unit) in taken { #expect(member == unit.index % 2 && unit.reassignedFrom == nil) }
        // Run order within a server: repeat 0 of its items, then repeat 1.
        #expect(taken.filter { $0.0 == 0 }.map { "\($0.1.index)#\($0.1.repeatIndex)" } == ["0#0", "2#0", "4#0", "0#1", "2#1", "4#1"])
    }

    @Test func aFailedServersUnitsMoveToTheLiveOnesOnceEach() {
        var dealer = PoolDealer(items: 7, repeats: 2, members: 3)
        let inFlight = dealer.next(for: 1)!  // item 1, repeat 0
        let moved = dealer.fail(1, inFlight: inFlight)
        #expect(moved == 4)  // items 1 and 4, both repeats, item 1's first in flight
        #expect(dealer.next(for: 1) == nil)
        let taken = Self.drain(&dealer)
        let keys = taken.map { "\($0.1.index)#\($0.1.repeatIndex)" }
        #expect(Set(keys).count == keys.count && keys.count == 14)
        let movedUnits = taken.filter { $0.1.reassignedFrom == 1 }
        #expect(movedUnits.count == 4)
        // Item 1 to the first live server, item 4 to the second: each item's repeats stay together.
        for (member, unit) in movedUnits { #expect(member == (unit.index == 1 ? 0 : 2)) }
    }

    /// On `--resume`: units an earlier run recorded are neither dealt nor counted as moved; the rest keep their servers.
    @Test func recordedUnitsAreNotDealtNorCountedAsMoved() {
        var dealer = PoolDealer(items: 6, repeats: 1, members: 2, recorded: [0, 1, 3])
        #expect(dealer.fail(1, inFlight: nil) == 1, "server 1 had items 1, 3, 5; only 5 was left to run")
        let taken = Self.drain(&dealer)
        #expect(taken.map { "\($0.0):\($0.1.index)\($0.1.reassignedFrom.map { "<\($0)" } ?? "")" } == ["0:2", "0:4", "0:5<1"])
    }

    @Test func whenEveryServerFailsNothingIsDealt() {
        var dealer = PoolDealer(items: 2, repeats: 1, members: 2)
        let a = dealer.next(for: 0)!, b = dealer.next(for: 1)!
        #expect(dealer.fail(0, inFlight: a) == 1)
        #expect(dealer.fail(1, inFlight: b) == 0)
        #expect(dealer.liveMembers.isEmpty && Self.drain(&dealer).isEmpty)
    }
}
