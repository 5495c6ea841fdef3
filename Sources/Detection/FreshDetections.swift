import Items

/// A chunk of fresh results for the sink, in item order: detections the recorder builds and encodes as it writes
/// them (a detector on tasks), or results built already (a detector called one item at a time). Either way the
/// recorder, the one thread that keeps the canonical order, does all the encoding: one recording path.
enum FreshChunk: Sendable {
    case detections(FreshDetections)
    case results([DetectionResult])

    var count: Int {
        switch self {
        case .detections(let detections): detections.count
        case .results(let results): results.count
        }
    }
}

/// A chunk of items with the detector's answers for them, not yet made into results: each result is
/// built where it is recorded or encoded, one at a time, with its item's fingerprint as a number (no
/// string per result).
struct FreshDetections: Sendable {
    var items: ArraySlice<CorpusItem>
    var bests: [Hypothesis?]
    var config: String
    var detector: String

    var count: Int { bests.count }

    /// Result number `index` (without `itemHash`) and the fingerprint of its item (`ItemFingerprint`).
    /// The item's fields are read in place through the buffer, one at a time: passing `pointee` whole made
    /// a copy of the item per result (a retain and release of each of its strings and arrays, ~2% of a
    /// `detect` run's CPU in `perf`).
    @inline(__always) func result(_ index: Int) -> (result: DetectionResult, fingerprint: UInt64) {
        let best = bests[index]  // checked: as many answers as items
        return items.withUnsafeBufferPointer { items in
            let item = items.baseAddress! + index
            let lang = item.pointee.lang, tags = item.pointee.sortedTags
            return (DetectionRunner.result(id: item.pointee.id, lang: lang, text: item.pointee.text, sortedTags: tags, config: config, detector: detector, best: best),
                    ItemFingerprint.value(lang: lang, sortedTags: tags, text: item.pointee.text))
        }
    }

    /// The per-item CSV cells and the log fields of the chunk's config and detector, encoded once.
    var cells: (csv: FixedCells, log: FixedCells) {
        Self.cells(config: config, detector: detector)
    }

    static func cells(config: String, detector: String) -> (csv: FixedCells, log: FixedCells) {
        (FixedCells(config: config, detector: detector, encode: DetectionItemsCSV.configAndDetector),
         FixedCells(config: config, detector: detector, encode: DetectionResultLine.configAndDetector))
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
