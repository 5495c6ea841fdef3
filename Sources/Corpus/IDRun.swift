/// The ids of a stretch of items in file order, as much as checking their order needs: how many, the
/// first and the last, and whether each comes after the one before it as `String`s compare (what
/// `loadSorted`'s first read keeps of a block, instead of an id `String` per item).
struct IDRun: Sendable, Equatable {
    private(set) var count = 0
    private(set) var first: String?
    private(set) var last: String?
    /// Whether every id after the first comes after the one before it (`<`, so none repeats).
    private(set) var isIncreasing = true

    init() {}

    /// The run of `ids`, compared as `String`s.
    init(_ ids: [String]) {
        for id in ids { append(id) }
    }

    /// A run whose order was found without `String`s (`PlainTSVRows`, on bytes where that is exact).
    init(count: Int, first: String?, last: String?, isIncreasing: Bool) {
        self.count = count
        self.first = first
        self.last = last
        self.isIncreasing = isIncreasing
    }

    mutating func append(_ id: String) {
        append(IDRun(count: 1, first: id, last: id, isIncreasing: true))
    }

    /// Adds the run right after this one.
    mutating func append(_ next: IDRun) {
        guard next.count > 0 else { return }
        if let last, let head = next.first, !(last < head) { isIncreasing = false }
        isIncreasing = isIncreasing && next.isIncreasing
        count += next.count
        first = first ?? next.first
        last = next.last
    }
}
