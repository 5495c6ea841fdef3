import BenchSupport

/// A k-way merge of sorted runs into canonical order (id, then file order), through a binary heap of
/// the runs' next records (`IndexHeap`). Records stay in their spool encoding: ordering needs only the
/// id and the sequence number, read in place, so merging copies bytes instead of decoding and encoding
/// items. Each run's head is refilled in place, so a merge allocates nothing per record.
struct RunMerge {
    private let readers: [SpoolReader]
    private var heads: [SpoolRecord]
    /// The runs that have a head, ordered by their heads.
    private var heap = IndexHeap()
    /// The run whose head `next` returned last: read on at the next call, once the caller is done with it.
    private var returned: Int?

    init(_ readers: [SpoolReader]) throws {
        self.readers = readers
        heads = Array(repeating: SpoolRecord(), count: readers.count)
        for run in readers.indices {
            if try readers[run].next(into: &heads[run]) {
                let heads = heads  // read by the comparison while the heap changes
                heap.push(run) { heads[$0].isBefore(heads[$1]) }
            }
        }
    }

    /// The next record in canonical order, valid until the next call.
    mutating func next() throws -> SpoolRecord? {
        if let run = returned {
            returned = nil
            let more = try readers[run].next(into: &heads[run])
            let heads = heads  // read by the comparison while the heap changes (released before the next refill)
            if more { heap.topChanged { heads[$0].isBefore(heads[$1]) } } else { heap.removeTop { heads[$0].isBefore(heads[$1]) } }
        }
        guard let top = heap.top else { return nil }
        returned = top
        return heads[top]
    }
}
