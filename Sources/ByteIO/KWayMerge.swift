/// A head that a k-way merge orders: the next record of one sorted source.
@usableFromInline package protocol MergeHead {
    /// Whether this head comes before `other` in the merged order: a strict total order (heads break their own ties,
    /// by file order or source number), so the merge asks one question per comparison.
    func isBefore(_ other: Self) -> Bool
}

/// The one k-way merge: sorted sources merged into one order through an `IndexHeap` of the sources that still
/// have a head, each source's head kept in `heads` and read on in place, so a merge allocates nothing per record.
/// Used for a corpus's spool runs (`Corpus`), whose heads are bytes, and for detection results (`ResultMerge`: a log's
/// segments, a run's shards, a run's configs joined by id); inlinable, so it is specialised for each.
@usableFromInline package struct KWayMerge<Head: MergeHead> {
    /// Each source's current head (stale once its source is done).
    @usableFromInline package internal(set) var heads: [Head]
    @usableFromInline var heap = IndexHeap()
    /// The source whose head `next` returned last: read on at the next call, once the caller is done with it.
    @usableFromInline var returned: Int?

    /// Reads each source's first head with `read(source, &head)` (false: the source is empty), `heads` starting as `empty`.
    @inlinable package init(sources: Int, empty: Head, read: (Int, inout Head) throws -> Bool) rethrows {
        heads = Array(repeating: empty, count: sources)
        for source in 0..<sources where try read(source, &heads[source]) {
            let heads = heads  // read by the comparison while the heap changes
            heap.push(source) { Self.less($0, $1, heads) }
        }
    }

    /// The source whose head comes next (`heads[source]`, valid until the next call, which first reads that source on
    /// with `read`); nil when every source is done.
    @inlinable package mutating func next(read: (Int, inout Head) throws -> Bool) rethrows -> Int? {
        if let source = returned {
            returned = nil
            let more = try read(source, &heads[source])
            let heads = heads  // read by the comparison while the heap changes (released before the next read)
            if more { heap.topChanged { Self.less($0, $1, heads) } } else { heap.removeTop { Self.less($0, $1, heads) } }
        }
        guard let top = heap.top else { return nil }
        returned = top
        return top
    }

    @inlinable static func less(_ a: Int, _ b: Int, _ heads: [Head]) -> Bool {
        heads[a].isBefore(heads[b])
    }
}
