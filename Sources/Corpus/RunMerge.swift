import Support
import ByteIO

/// The sorted runs of a corpus's spool merged into canonical order (id, then file order) by the k-way merge
/// (`KWayMerge`). Records stay in their spool encoding: ordering needs only the id and the sequence number, read
/// in place, so merging copies bytes instead of decoding and encoding items.
struct RunMerge {
    private let readers: [SpoolReader]
    private var merge: KWayMerge<SpoolRecord>

    init(_ readers: [SpoolReader]) throws {
        self.readers = readers
        merge = try KWayMerge(sources: readers.count, empty: SpoolRecord()) { try readers[$0].next(into: &$1) }
    }

    /// The next record in canonical order, valid until the next call.
    mutating func next() throws -> SpoolRecord? {
        let readers = readers
        guard let run = try merge.next(read: { try readers[$0].next(into: &$1) }) else { return nil }
        return merge.heads[run]
    }
}

extension SpoolRecord: MergeHead {}
