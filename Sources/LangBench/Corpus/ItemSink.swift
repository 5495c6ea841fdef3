/// Where `CorpusLoader` hands the valid items it reads, in file order: each to `item`, except while
/// `onlyIDs()` holds, when only each one's id goes to `id` (the row is checked all the same, and the
/// same problems reported) — for a receiver that by then only counts items and checks their order.
struct ItemSink {
    var item: (CorpusItem) throws -> Void
    var onlyIDs: () -> Bool = { false }
    var id: (String) throws -> Void = { _ in }
}
