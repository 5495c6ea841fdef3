/// A binary min-heap of the indices `0..<n` of some sources (runs, shards), ordered by a comparison of
/// their current heads that the owner keeps: what a k-way merge needs to find the smallest head in
/// log k comparisons. The owner changes the top's head, then calls `topChanged` (or `removeTop` when
/// that source is exhausted). Inlinable: the merges of `Corpus` and the suite call it per record, with
/// their comparison inlined.
@usableFromInline package struct IndexHeap {
    @usableFromInline var heap: [Int] = []

    @inlinable package init() {}

    /// The index with the smallest head, or nil when empty.
    @inlinable package var top: Int? { heap.first }

    @inlinable package var isEmpty: Bool { heap.isEmpty }

    /// Adds `index`; `less(a, b)` orders indices by their heads.
    @inlinable package mutating func push(_ index: Int, by less: (Int, Int) -> Bool) {
        heap.append(index)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard less(heap[child], heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    /// Restores the order after the top's head moved on.
    @inlinable package mutating func topChanged(by less: (Int, Int) -> Bool) {
        siftDown(by: less)
    }

    /// Removes the top (its source has no head any more).
    @inlinable package mutating func removeTop(by less: (Int, Int) -> Bool) {
        let last = heap.removeLast()
        guard !heap.isEmpty else { return }
        heap[0] = last
        siftDown(by: less)
    }

    @inlinable mutating func siftDown(by less: (Int, Int) -> Bool) {
        var parent = 0
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
