/// Fresh results with their output bytes: each per-item CSV row without its `correct,flip` cells (they
/// need the run's order and the first config's outcome), and each line of the results log. With many
/// detection tasks they are encoded in the tasks, so that the one recording thread (which keeps the
/// canonical order) only copies bytes. With up to `ConfigPass.recorderKeepsUpWith` (two), the
/// detections are handed over as they are (`deferring`) and the recorder builds each result and writes
/// its bytes straight into the output files, as that thread keeps up with them.
struct EncodedResults: Sendable {
    /// The results as the tally reads them. Those built from `FreshDetections` have no `itemHash`: their
    /// fingerprints are written into `log` from their numbers.
    private(set) var results: [DetectionResult] = []
    /// Every row's head (`DetectionItemsCSV.head`) followed by its tail, row after row.
    private(set) var rows: [UInt8] = []
    /// Per result: where its head ends and where its tail ends in `rows`.
    private(set) var cuts: [Int] = []
    /// The results-log lines of all `results`, in order.
    private(set) var log: [UInt8] = []
    /// Detections handed over before their results were built: built by the recorder, or by
    /// `encodeIfDeferred()`.
    private(set) var deferred: FreshDetections?

    init() {}

    /// `results` encoded, in order.
    init(_ results: [DetectionResult]) {
        reserve(results.count)
        // A chunk's results share their config and detector: those cells are encoded once.
        let cells = results.first.map { FreshDetections.cells(config: $0.config, detector: $0.detector) }
        for result in results { append(result, fingerprint: nil, cells: cells) }
    }

    /// The results of `detections`, to be built and encoded by whoever records them.
    init(deferring detections: FreshDetections) {
        deferred = detections
    }

    /// Builds and encodes results handed over as detections; nothing when that is done already.
    mutating func encodeIfDeferred() {
        guard let detections = deferred.take() else { return }
        reserve(detections.count)
        let cells = detections.cells
        for index in 0..<detections.count {
            let (result, fingerprint) = detections.result(index)
            append(result, fingerprint: fingerprint, cells: cells)
        }
    }

    private mutating func reserve(_ count: Int) {
        results.reserveCapacity(count)
        rows.reserveCapacity(count * 64)
        log.reserveCapacity(count * 96)  // a row of a one-word item is about 85 bytes
        cuts.reserveCapacity(count * 2)
    }

    private mutating func append(_ result: DetectionResult, fingerprint: UInt64?, cells: (csv: FixedCells, log: FixedCells)?) {
        results.append(result)
        DetectionItemsCSV.head(result, into: &rows, fixed: cells?.csv)
        cuts.append(rows.count)
        DetectionItemsCSV.tail(result, into: &rows)
        cuts.append(rows.count)
        DetectionResultLine.encode(result, fingerprint: fingerprint, into: &log, fixed: cells?.log)
    }

    var count: Int { deferred?.count ?? results.count }

    /// The CSV row head and tail of result number `index`.
    func row(_ index: Int) -> (head: ArraySlice<UInt8>, tail: ArraySlice<UInt8>) {
        let start = index == 0 ? 0 : cuts[2 * index - 1]
        return (rows[start..<cuts[2 * index]], rows[cuts[2 * index]..<cuts[2 * index + 1]])
    }
}

/// What an encoder writes for a config and detector, made once for all of a chunk's results (which share them).
struct FixedCells: Sendable {
    let config: String
    let detector: String
    let bytes: [UInt8]

    /// The cells of `config` and `detector` as `encode` writes them.
    init(config: String, detector: String, encode: (_ config: String, _ detector: String, _ out: inout [UInt8]) -> Void) {
        self.config = config
        self.detector = detector
        var bytes: [UInt8] = []
        encode(config, detector, &bytes)
        self.bytes = bytes
    }

    /// Whether these are the cells of `result` (else they are encoded for it).
    func fit(_ result: DetectionResult) -> Bool {
        config == result.config && detector == result.detector
    }
}
