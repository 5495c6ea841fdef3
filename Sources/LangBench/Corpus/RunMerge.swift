/// A k-way merge of sorted runs into canonical order (id, then file order), through a binary heap of
/// the runs' next records. Records stay in their spool encoding: ordering needs only the id and the
/// sequence number, read in place, so merging copies bytes instead of decoding and encoding items.
struct RunMerge {
    private let readers: [SpoolReader]
    private var heads: [SpoolRecord?]
    private var heap: [Int] = []

    init(_ readers: [SpoolReader]) throws {
        self.readers = readers
        heads = try readers.map { try $0.nextRecord() }
        for run in heads.indices where heads[run] != nil { push(run) }
    }

    mutating func next() throws -> SpoolRecord? {
        guard let top = heap.first, let head = heads[top] else { return nil }
        heads[top] = try readers[top].nextRecord()
        if heads[top] == nil {
            let lastRun = heap.removeLast()
            if !heap.isEmpty {
                heap[0] = lastRun
                siftDown(0)
            }
        } else {
            siftDown(0)
        }
        return head
    }

    private func less(_ a: Int, _ b: Int) -> Bool {
        heads[a]!.isBefore(heads[b]!)
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
