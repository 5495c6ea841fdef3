/// Deals a run's work (item × repeat units) across a pool's servers, deterministically: the items in
/// corpus order, item k to the k-th live server modulo their number, every repeat (and so every route and
/// variant) of an item to the same server, so paired ratios stay within one machine. A server that fails
/// has its units dealt the same way to the servers still live.
struct PoolDealer: Sendable {
    /// One item × repeat; `reassignedFrom` is the member it was taken from when that member failed.
    struct Unit: Sendable, Equatable {
        var index: Int
        var repeatIndex: Int
        var reassignedFrom: Int?
    }

    let itemCount: Int
    /// Per member, the units still to start, in run order (repeat, then item).
    private(set) var queues: [[Unit]]
    private(set) var live: [Bool]

    /// `items` items × `repeats` repeats over `members` servers, less the units at `recorded` positions
    /// (repeat × items + item: wholly recorded by the run being resumed), which are neither run nor moved.
    /// Leaving them out changes no other unit's server.
    init(items: Int, repeats: Int, members: Int, recorded: Set<Int> = []) {
        itemCount = items
        live = Array(repeating: true, count: members)
        queues = Array(repeating: [], count: members)
        for repeatIndex in 0..<repeats {
            for index in 0..<items where !recorded.contains(repeatIndex * items + index) {
                queues[index % members].append(Unit(index: index, repeatIndex: repeatIndex))
            }
        }
    }

    var liveMembers: [Int] { live.indices.filter { live[$0] } }

    /// The next unit for `member`, taken off its queue.
    mutating func next(for member: Int) -> Unit? {
        guard live[member], !queues[member].isEmpty else { return nil }
        return queues[member].removeFirst()
    }

    /// `member` failed with `unit` in flight (nil: already counted): marks it dead and deals its queued units
    /// and `unit` to the live members; returns how many units moved (0 and nothing dealt when none is live).
    mutating func fail(_ member: Int, inFlight unit: Unit?) -> Int {
        var moved = live[member] ? queues[member] : []
        live[member] = false
        queues[member] = []
        if let unit { moved.append(unit) }
        let targets = liveMembers
        guard !targets.isEmpty else { return 0 }
        moved.sort { position($0) < position($1) }
        var owner: [Int: Int] = [:]
        for unit in moved {
            let target = owner[unit.index] ?? targets[owner.count % targets.count]
            owner[unit.index] = target
            queues[target].append(Unit(index: unit.index, repeatIndex: unit.repeatIndex, reassignedFrom: member))
        }
        let items = itemCount
        for target in targets { queues[target].sort { ($0.repeatIndex * items + $0.index) < ($1.repeatIndex * items + $1.index) } }
        return moved.count
    }

    private func position(_ unit: Unit) -> Int { unit.repeatIndex * itemCount + unit.index }
}
