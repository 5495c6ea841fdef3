/// Where `CorpusLoader` hands what it reads, in file order: each valid item, or — for a receiver that
/// only counts the items and checks their order (`IDOrder`) — each block's `IDRun` (the rows are checked
/// all the same, and the same problems reported).
enum ItemSink {
    case items((CorpusItem) throws -> Void)
    case ids((IDRun) throws -> Void)

    var onlyIDs: Bool {
        if case .ids = self { return true }
        return false
    }
}
