import Corpus

/// What one detection config said about one item.
package struct DetectionResult: Sendable, Hashable, Codable {
    package var itemID: String
    package var lang: LanguageCode
    package var tags: [String]
    package var length: LengthBucket
    package var config: String
    package var detector: String
    /// Nil when the detector abstained (`und`) or failed.
    package var predicted: LanguageCode?
    package var confidence: Double?
    /// Why there is no prediction when the detector failed (not set for a plain abstention).
    package var error: String?
    /// The item's `ItemFingerprint` when the result was measured (logs before format 2 have none).
    package var itemHash: String? = nil

    package init(itemID: String, lang: LanguageCode, tags: [String], length: LengthBucket, config: String, detector: String, predicted: LanguageCode? = nil, confidence: Double? = nil, error: String? = nil, itemHash: String? = nil) {
        self.itemID = itemID
        self.lang = lang
        self.tags = tags
        self.length = length
        self.config = config
        self.detector = detector
        self.predicted = predicted
        self.confidence = confidence
        self.error = error
        self.itemHash = itemHash
    }

    /// Locale-equivalent prediction (`sr-Cyrl` counts for `sr`); abstentions and failures are wrong.
    package var correct: Bool {
        predicted.map { $0.isEquivalent(to: lang) } ?? false
    }

    /// The prediction as reports show it: a code, `und`, or `error`.
    package var predictedLabel: String {
        predicted?.identifier ?? (error == nil ? "und" : "error")
    }

    enum CodingKeys: String, CodingKey {
        case itemID = "item_id", lang, tags, length, config, detector, predicted, confidence, error, itemHash = "item_hash"
    }
}

extension DetectionResult {
    /// More bytes than a per-item encoder (`DetectionResultLine.encode`, `DetectionItemsCSV.row`)
    /// writes for this result: the room they are given in a writer's buffer. Every text at its worst
    /// escape (JSON's `\u00XX`, six bytes a byte), the confidence at its longest (`%.4f` of the largest
    /// Double is 315 bytes), and the punctuation.
    var encodedBound: Int {
        var text = itemID.utf8.count + lang.identifier.utf8.count + config.utf8.count + detector.utf8.count
        for tag in tags { text += tag.utf8.count + 1 }
        text += (predicted?.identifier.utf8.count ?? 5) + (error?.utf8.count ?? 0) + (itemHash?.utf8.count ?? 0) + 16
        return 6 * text + 1024
    }
}

extension DetectionResult {
    /// The result of `best` (nil: abstained, or failed with `error`) for the item of these fields, without its
    /// fingerprint (`FreshDetections` keeps that as a number). Fields, not the item: `FreshDetections` reads
    /// them through its buffer, where passing the item whole copied it.
    @inline(__always)
    init(id: String, lang: LanguageCode, text: String, sortedTags tags: [String], config: String, detector: String, best: Hypothesis?,
         error: String? = nil) {
        self.init(itemID: id, lang: lang, tags: tags, length: LengthBucket(text: text, lang: lang),
                  config: config, detector: detector, predicted: best?.lang,
                  confidence: best.map { ($0.probability * 10_000).rounded() / 10_000 }, error: error)
    }
}
