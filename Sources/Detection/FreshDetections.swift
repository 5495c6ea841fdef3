import Corpus

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
            return (DetectionResult(id: item.pointee.id, lang: lang, text: item.pointee.text, sortedTags: tags, config: config, detector: detector, best: best),
                    ItemFingerprint.value(lang: lang, sortedTags: tags, text: item.pointee.text))
        }
    }
}
