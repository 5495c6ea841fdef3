/// Fresh results with their output bytes: each per-item CSV row without its `correct,flip` cells (they
/// need the run's order and the first config's outcome), and each line of the results log. With several
/// detection tasks they are encoded in the tasks, so that the one recording thread (which keeps the
/// canonical order) only copies bytes; with one, the runner builds and encodes them on the recording
/// thread before handing the batch to its sink (`deferring`), as that thread has time to spare while the
/// task is the critical path. A sink always gets them encoded.
public struct EncodedResults: Sendable {
    public private(set) var results: [DetectionResult] = []
    /// Every row's head (`DetectionItemsCSV.head`) followed by its tail, row after row.
    private(set) var rows: [UInt8] = []
    /// Per result: where its head ends and where its tail ends in `rows`.
    private(set) var cuts: [Int] = []
    /// The results-log lines of all `results`, in order.
    private(set) var log: [UInt8] = []

    public init() {}

    /// Detections handed over before their results were built (`encodeIfDeferred()` builds and encodes them).
    private var deferred: Deferred?

    /// Items and the detector's answers for them, not yet made into results.
    struct Deferred: Sendable {
        var items: ArraySlice<CorpusItem>
        var bests: [Hypothesis?]
        var config: String
        var detector: String
    }

    /// `results` encoded, in order.
    public init(_ results: [DetectionResult]) {
        self.results = results
        encode()
    }

    /// The results of `detections`, to be built and encoded by whoever records them (`encodeIfDeferred()`).
    init(deferring detections: Deferred) {
        deferred = detections
    }

    /// Builds and encodes results handed over as detections; nothing when that is done already.
    mutating func encodeIfDeferred() {
        guard let detections = deferred.take() else { return }
        let config = detections.config, detector = detections.detector
        results = zip(detections.items, detections.bests).map {
            DetectionRunner.result(for: $0, config: config, detector: detector, best: $1)
        }
        encode()
    }

    private mutating func encode() {
        rows.reserveCapacity(results.count * 64)
        log.reserveCapacity(results.count * 160)
        cuts.reserveCapacity(results.count * 2)
        // A chunk's results share their config and detector: those cells are encoded once.
        let first = results.first
        let cells = first.map { FixedCells($0, encode: DetectionItemsCSV.configAndDetector) }
        let fields = first.map { FixedCells($0, encode: DetectionResultLine.configAndDetector) }
        for result in results {
            DetectionItemsCSV.head(result, into: &rows, fixed: cells)
            cuts.append(rows.count)
            DetectionItemsCSV.tail(result, into: &rows)
            cuts.append(rows.count)
            DetectionResultLine.encode(result, into: &log, fixed: fields)
        }
    }

    public var count: Int { deferred?.bests.count ?? results.count }

    /// The CSV row head and tail of result number `index`.
    func row(_ index: Int) -> (head: ArraySlice<UInt8>, tail: ArraySlice<UInt8>) {
        let start = index == 0 ? 0 : cuts[2 * index - 1]
        return (rows[start..<cuts[2 * index]], rows[cuts[2 * index]..<cuts[2 * index + 1]])
    }
}

/// What an encoder writes for a config and detector, made once for all of a chunk's results (which share them).
struct FixedCells {
    let config: String
    let detector: String
    let bytes: [UInt8]

    /// The cells of `result`'s config and detector as `encode` writes them.
    init(_ result: DetectionResult, encode: (_ config: String, _ detector: String, _ out: inout [UInt8]) -> Void) {
        config = result.config
        detector = result.detector
        var bytes: [UInt8] = []
        encode(config, detector, &bytes)
        self.bytes = bytes
    }

    /// Whether these are the cells of `result` (else they are encoded for it).
    func fit(_ result: DetectionResult) -> Bool {
        config == result.config && detector == result.detector
    }
}
