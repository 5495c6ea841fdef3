/// A k-way merge of sorted runs into canonical order (id, then file order), through a binary heap of
/// the runs' next records. Records stay in their spool encoding: ordering needs only the id and the
/// sequence number, read in place, so merging copies bytes instead of decoding and encoding items. Each
/// run's head is refilled in place, so a merge allocates nothing per record.
struct RunMerge {
    private let readers: [SpoolReader]
    private var heads: [SpoolRecord]
    /// The runs that have a head, as a binary heap on their heads.
    private var heap: [Int] = []
    /// The run whose head `next` returned last: read on at the next call, once the caller is done with it.
    private var returned: Int?

    init(_ readers: [SpoolReader]) throws {
        self.readers = readers
        heads = Array(repeating: SpoolRecord(), count: readers.count)
        for run in readers.indices {
            if try readers[run].next(into: &heads[run]) { push(run) }
        }
    }

    /// The next record in canonical order, valid until the next call.
    mutating func next() throws -> SpoolRecord? {
        if let run = returned {
            returned = nil
            if try readers[run].next(into: &heads[run]) {
                siftDown(0)
            } else {
                let lastRun = heap.removeLast()
                if !heap.isEmpty {
                    heap[0] = lastRun
                    siftDown(0)
                }
            }
        }
        guard let top = heap.first else { return nil }
        returned = top
        return heads[top]
    }

    private func less(_ a: Int, _ b: Int) -> Bool {
        heads[a].isBefore(heads[b])
    }

    private mutating func push(_ run: Int) {
        heap.append(run)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard less(heap[child], heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1, right = left + 1
            var smallest = parent
            if left < heap.count && less(heap[left], heap[smallest]) { smallest = left }
            if right < heap.count && less(heap[right], heap[smallest]) { smallest = right }
            if smallest == parent { return }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
    }
}
