import Items

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
