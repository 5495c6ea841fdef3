/// The running aggregates of a detection run, fed one result at a time in canonical order (config
/// order, then item id): everything the report needs, in memory bounded by configs × slices ×
/// languages plus two bits per item and config — never the results themselves.
struct DetectionTally: Sendable {
    /// One config's slices, confusion counts and per-item outcomes.
    struct ConfigTally: Sendable {
        var detector: String?
        var all = ClassificationMetrics.Tally()
        var byLanguage: [LanguageCode: ClassificationMetrics.Tally] = [:]
        var byTag: [String: ClassificationMetrics.Tally] = [:]
        var byLength: [LengthBucket: ClassificationMetrics.Tally] = [:]
        var confusion = ConfusionMatrix.Tally()
        var outcomes: OutcomeBits
    }

    let echoes: [DetectionReport.ConfigEcho]
    private(set) var configs: [ConfigTally]
    private var equivalence = LanguageEquivalence()

    init(echoes: [DetectionReport.ConfigEcho], items: Int = 0) {
        self.echoes = echoes
        configs = echoes.map { _ in ConfigTally(outcomes: OutcomeBits(capacity: items)) }
    }

    /// Scores `result` (of config number `config`, item number `item`) and returns whether it is correct.
    @discardableResult
    mutating func add(_ result: DetectionResult, config: Int, item: Int) -> Bool {
        let goldKey = equivalence.key(result.lang)
        let predictedKey = result.predicted.map { equivalence.key($0) }
        let correct = result.predicted.map { $0.identifier == result.lang.identifier || predictedKey == goldKey } ?? false
        configs[config].add(result, goldKey: goldKey, predictedKey: predictedKey, correct: correct, item: item)
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
    mutating func add(_ result: DetectionResult, goldKey: String, predictedKey: String?, correct: Bool, item: Int) {
        if detector == nil { detector = result.detector }
        all.add(gold: result.lang, goldKey: goldKey, predictedKey: predictedKey)
        byLanguage[result.lang, default: .init()].add(gold: result.lang, goldKey: goldKey, predictedKey: predictedKey)
        for tag in result.tags { byTag[tag, default: .init()].add(gold: result.lang, goldKey: goldKey, predictedKey: predictedKey) }
        byLength[result.length, default: .init()].add(gold: result.lang, goldKey: goldKey, predictedKey: predictedKey)
        confusion.add(gold: result.lang.identifier, predicted: result.predictedLabel)
        outcomes.set(item, correct: correct)
    }
}
