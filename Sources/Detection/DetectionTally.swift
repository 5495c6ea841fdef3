import Corpus

/// The running aggregates of a detection run, fed one result at a time in canonical order (config
/// order, then item id): everything the report needs, in memory bounded by configs × slices ×
/// languages plus two bits per item and config — never the results themselves. What a store's writer
/// returns when finished (`DetectionStore.Writer`), made into a report with the run's timings.
package struct DetectionTally: Sendable {
    /// One config's slices, confusion counts and per-item outcomes.
    struct ConfigTally: Sendable {
        var detector: String?
        var all = ClassificationMetrics.Tally()
        /// By gold code number.
        var byLanguage: [ClassificationMetrics.Tally?] = []
        /// By tag number (`tagNames`); the previous result's tag is tried first (items come in runs).
        fileprivate var tags: [ClassificationMetrics.Tally] = []
        fileprivate var tagNames: [String] = []
        fileprivate var tagNumbers: [String: Int] = [:]
        fileprivate var lastTag = -1
        /// By `LengthBucket.allCases` order.
        fileprivate var lengths = [ClassificationMetrics.Tally?](repeating: nil, count: LengthBucket.allCases.count)
        /// By corpus tag (`corpus:<name>`, the name): that corpus's items by gold code number and by length bucket.
        var corpora: [String: CorpusTally] = [:]
        var confusion = ConfusionMatrix.Tally()
        var outcomes: OutcomeBits
        /// Results, and those that ended in a detector error (with the first error's text).
        var results = 0
        var errors = 0
        var firstError: String?
    }

    let echoes: [DetectionConfigEcho]
    private(set) var configs: [ConfigTally]
    private(set) var equivalence = LanguageEquivalence()

    init(echoes: [DetectionConfigEcho], items: Int = 0) {
        self.echoes = echoes
        configs = echoes.map { _ in ConfigTally(outcomes: OutcomeBits(capacity: items)) }
    }

    /// Scores `result` (of config number `config`, item number `item`) and returns whether it is correct.
    @discardableResult
    mutating func add(_ result: DetectionResult, config: Int, item: Int) -> Bool {
        let gold = equivalence.number(result.lang)
        let column = ConfusionMatrix.Tally.column(result, equivalence: &equivalence)
        let goldKey = equivalence.key(gold), predictedKey = column >= 0 ? equivalence.key(column) : nil
        let correct = predictedKey == goldKey
        configs[config].add(result, gold: gold, column: column, goldKey: goldKey, predictedKey: predictedKey, correct: correct, item: item)
        return correct
    }

    /// Whether config number `config` got item number `item` right; nil when it has no result.
    func outcome(config: Int, item: Int) -> Bool? {
        configs[config].outcomes.outcome(item)
    }

    /// Items with a result in any config.
    var itemCount: Int {
        configs.map(\.outcomes).reduce(OutcomeBits()) { $0.union($1) }.count
    }
}

extension DetectionTally.ConfigTally {
    mutating func add(_ result: DetectionResult, gold: Int, column: Int, goldKey: Int, predictedKey: Int?, correct: Bool, item: Int) {
        if detector == nil { detector = result.detector }
        results += 1
        if let error = result.error {
            errors += 1
            if firstError == nil { firstError = error }
        }
        all.add(gold: gold, goldKey: goldKey, predictedKey: predictedKey)
        if byLanguage.count <= gold { byLanguage += Array(repeating: nil, count: gold + 1 - byLanguage.count) }
        if byLanguage[gold] == nil { byLanguage[gold] = .init() }
        byLanguage[gold]!.add(gold: gold, goldKey: goldKey, predictedKey: predictedKey)  // in place: no copy of the counts
        let length = Self.index(result.length)
        for tag in result.tags where !tag.hasPrefix(Self.clusterPrefix) {
            tags[number(tag: tag)].add(gold: gold, goldKey: goldKey, predictedKey: predictedKey)
            if tag.hasPrefix(Self.corpusPrefix) {
                corpora[String(tag.dropFirst(Self.corpusPrefix.count)), default: CorpusTally()].add(gold: gold, goldKey: goldKey, predictedKey: predictedKey, length: result.length)
            }
        }
        if lengths[length] == nil { lengths[length] = .init() }
        lengths[length]!.add(gold: gold, goldKey: goldKey, predictedKey: predictedKey)
        confusion.add(gold: gold, predicted: column)
        outcomes.set(item, correct: correct)
    }
}

/// One corpus's items within a config: by gold code number and by length bucket.
struct CorpusTally: Sendable {
    var byLanguage: [Int: ClassificationMetrics.Tally] = [:]
    var byLength: [LengthBucket: ClassificationMetrics.Tally] = [:]

    mutating func add(gold: Int, goldKey: Int, predictedKey: Int?, length: LengthBucket) {
        byLanguage[gold, default: .init()].add(gold: gold, goldKey: goldKey, predictedKey: predictedKey)
        byLength[length, default: .init()].add(gold: gold, goldKey: goldKey, predictedKey: predictedKey)
    }
}

extension DetectionTally.ConfigTally {
    /// A tag naming the corpus an item comes from (`corpus:outside`): its items are also sliced by language and length.
    static let corpusPrefix = "corpus:"
    /// A tag grouping near-duplicate items (an emoji's keywords, a file's strings): never a slice of its own.
    static let clusterPrefix = "cluster:"

    var byTag: [String: ClassificationMetrics.Tally] {
        Dictionary(uniqueKeysWithValues: zip(tagNames, tags))
    }

    var byLength: [LengthBucket: ClassificationMetrics.Tally] {
        Dictionary(uniqueKeysWithValues: LengthBucket.allCases.enumerated().compactMap { i, bucket in lengths[i].map { (bucket, $0) } })
    }

    private mutating func number(tag: String) -> Int {
        if lastTag >= 0 && tagNames[lastTag] == tag { return lastTag }
        if let known = tagNumbers[tag] {
            lastTag = known
            return known
        }
        lastTag = tagNames.count
        tagNumbers[tag] = lastTag
        tagNames.append(tag)
        tags.append(.init())
        return lastTag
    }

    private static func index(_ bucket: LengthBucket) -> Int {
        switch bucket {
        case .one: 0
        case .twoToThree: 1
        case .fourToEight: 2
        case .ninePlus: 3
        }
    }
}
