/// Fresh results with their output bytes: each per-item CSV row without its `correct,flip` cells (they
/// need the run's order and the first config's outcome), and each line of the results log. With several
/// detection tasks they are encoded in the tasks, so that the one recording thread (which keeps the
/// canonical order) only copies bytes; with one, the recording thread encodes them (`deferring`), as it
/// has time to spare while that task is the critical path.
public struct EncodedResults: Sendable {
    public private(set) var results: [DetectionResult] = []
    /// Every row's head (`DetectionItemsCSV.head`) followed by its tail, row after row.
    private(set) var rows: [UInt8] = []
    /// Per result: where its head ends and where its tail ends in `rows`.
    private(set) var cuts: [Int] = []
    /// The results-log lines of all `results`, in order.
    private(set) var log: [UInt8] = []

    public init() {}

    /// Whether the bytes are made (`encodeIfDeferred()` makes them for results handed over unencoded).
    private(set) var isEncoded = true

    /// `results` encoded, in order.
    public init(_ results: [DetectionResult]) {
        self.results = results
        encode()
    }

    /// `results` to be encoded by whoever records them (`encodeIfDeferred()`).
    init(deferring results: [DetectionResult]) {
        self.results = results
        isEncoded = false
    }

    /// Makes the bytes of results handed over unencoded; nothing when they are made already.
    mutating func encodeIfDeferred() {
        if !isEncoded { encode() }
    }

    private mutating func encode() {
        isEncoded = true
        rows.reserveCapacity(results.count * 64)
        log.reserveCapacity(results.count * 160)
        cuts.reserveCapacity(results.count * 2)
        for result in results {
            DetectionItemsCSV.head(result, into: &rows)
            cuts.append(rows.count)
            DetectionItemsCSV.tail(result, into: &rows)
            cuts.append(rows.count)
            DetectionResultLine.encode(result, into: &log)
        }
    }

    public var count: Int { results.count }

    /// The CSV row head and tail of result number `index`.
    func row(_ index: Int) -> (head: ArraySlice<UInt8>, tail: ArraySlice<UInt8>) {
        let start = index == 0 ? 0 : cuts[2 * index - 1]
        return (rows[start..<cuts[2 * index]], rows[cuts[2 * index]..<cuts[2 * index + 1]])
    }
}
