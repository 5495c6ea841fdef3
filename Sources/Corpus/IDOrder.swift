/// Counts the items of a corpus read in file order and checks that each id comes after the one before
/// it (as `String`s compare), a block's `IDRun` at a time: all that `CorpusLoader.loadSorted` keeps of
/// its first read. Throws `Broken` at the first id out of order (the corpus must then be sorted).
final class IDOrder {
    struct Broken: Error {}

    private(set) var count = 0
    private var ids = IDRun()

    func add(_ run: IDRun) throws {
        ids.append(run)
        guard ids.isIncreasing else { throw Broken() }
        count = ids.count
    }
}
