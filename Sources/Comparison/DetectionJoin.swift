import Support
import Checks
import Detection
import Corpus

/// What `compare` needs of two detection runs' per-item results, gathered in one merge-join of their
/// canonical streams (`DetectionStore`): per config of CURRENT that BASE ran too, and per language of
/// the base result, the paired counts McNemar's test needs; the items CURRENT broke (the first
/// `brokenCap`, with their total); and whether the runs share an item at all. Memory is configs ×
/// languages plus the kept broken ids, whatever the runs' size.
struct DetectionJoin {
    /// Items with a result in both runs; of those, right in base, right in current, fixed (wrong in
    /// base, right in current) and broken (right in base, wrong in current).
    struct Counts: Sendable, Equatable {
        var n = 0, baseRight = 0, currentRight = 0, fixed = 0, broken = 0

        mutating func add(base: Bool, current: Bool) {
            n += 1
            if base { baseRight += 1 }
            if current { currentRight += 1 }
            if !base && current { fixed += 1 }
            if base && !current { broken += 1 }
        }
    }

    struct ConfigJoin: Sendable {
        var all = Counts()
        var byLanguage: [LanguageCode: Counts] = [:]
        /// The broken items in id order: the first `brokenCap`; `all.broken` counts them all.
        var brokenItems: [String] = []
        /// The items each check of this config would list (`MovedCandidates.detection`), overall and per language.
        var moved = MovedCandidates(worse: [], better: [])
        var movedByLanguage: [LanguageCode: MovedCandidates] = [:]
        /// Under a cost matrix: the summed cost of each run's answers, and every nonzero per-item difference
        /// (current − base), which the paired sign-flip test of the cost-weighted error takes.
        var cost: (base: Double, current: Double) = (0, 0)
        var costDifferences: [Double] = []
        /// Each item whose cost changed: its cost in each run (0 when right), for the test of the errors made against those removed.
        var movedCosts: [(base: Double, current: Double)] = []
    }

    /// Broken item ids kept per config: what a report lists (Markdown shows 200, HTML up to
    /// `HTMLWriter.defaultRowCap`), with room to spare for the JSON comparison.
    static let brokenCap = 100_000

    /// By config name, for the configs of CURRENT that BASE ran too, in CURRENT's order.
    private(set) var configs: [(name: String, join: ConfigJoin)] = []
    /// Whether any item has a result in both runs (in any config).
    private(set) var sharesItems = false
    /// When the runs share no item: each run's distinct item count and smallest id.
    private(set) var disjoint: (base: (count: Int, first: String?), current: (count: Int, first: String?))?

    /// The matrix errors are weighed by (nil: no cost-weighted error).
    private(set) var costs: ConfusionCosts?

    init(base: DetectionStore, current: DetectionStore, costs: ConfusionCosts? = nil, brokenCap: Int = Self.brokenCap) throws {
        let cursors = (base: try base.cursor(), current: try current.cursor())
        self.costs = costs
        try pair(base: cursors.base, current: cursors.current, baseConfigs: base.configs, currentConfigs: current.configs, brokenCap: brokenCap)
        if !sharesItems { try checkShared(base: cursors.base, current: cursors.current) }
    }

    private init() {}

    /// Counts joined elsewhere: a simulation over a real run's per-item outcomes judges them with the real rules.
    init(configs: [(name: String, join: ConfigJoin)], costs: ConfusionCosts?) {
        self.configs = configs
        self.costs = costs
        sharesItems = true
    }

    private mutating func pair(base: DetectionStore.Cursor, current: DetectionStore.Cursor, baseConfigs: [String], currentConfigs: [String],
                               brokenCap: Int) throws {
        let baseNumber = baseConfigs.firstPositions
        // Current's config number → its slot in `configs` and its number in base.
        var slots: [(slot: Int, base: Int)?] = []
        for name in currentConfigs {
            if let number = baseNumber[name] {
                slots.append((configs.count, number))
                configs.append((name, ConfigJoin()))
            } else {
                slots.append(nil)
            }
        }
        var equivalence = EquivalenceMemo()
        var head = try base.next()
        /// The base config whose rows were read past last (a segment read again needs a rewind).
        var passed = -1
        var segment = -1
        while let result = try current.next() {
            guard let (slot, wanted) = slots[current.configNumber] else { continue }
            if current.configNumber != segment {
                segment = current.configNumber
                if passed >= wanted {
                    try base.rewind()
                    head = try base.next()
                    passed = -1
                }
            }
            while let row = head, base.configNumber < wanted || base.configNumber == wanted && row.itemID < result.itemID {
                passed = base.configNumber
                head = try base.next()
            }
            guard let before = head, base.configNumber == wanted, before.itemID == result.itemID else { continue }
            let right = (base: equivalence.correct(before), current: equivalence.correct(result))
            configs[slot].join.all.add(base: right.base, current: right.current)
            configs[slot].join.byLanguage[before.lang, default: Counts()].add(base: right.base, current: right.current)
            if right.base != right.current {
                configs[slot].join.moved.add(base: before, current: result, broken: right.base)
                configs[slot].join.movedByLanguage[before.lang, default: MovedCandidates(worse: [], better: [])]
                    .add(base: before, current: result, broken: right.base)
            }
            if right.base && !right.current && configs[slot].join.brokenItems.count < brokenCap { configs[slot].join.brokenItems.append(result.itemID) }
            if let costs {
                // Scored already: a right answer costs 0, and only a wrong one is looked up (no Locale call per item).
                let cost = (base: right.base ? 0 : costs.errorCost(gold: before.lang, predicted: before.predicted),
                            current: right.current ? 0 : costs.errorCost(gold: before.lang, predicted: result.predicted))
                configs[slot].join.cost.base += cost.base
                configs[slot].join.cost.current += cost.current
                if cost.base != cost.current {
                    configs[slot].join.costDifferences.append(cost.current - cost.base)
                    configs[slot].join.movedCosts.append(cost)
                }
            }
            sharesItems = true
        }
        while try base.next() != nil {}  // to its end, where the log is checked complete
    }

    /// Whether the runs share an item in any config (not only the configs both ran): each run's
    /// distinct ids, merged from one pass per config, joined.
    private mutating func checkShared(base: DetectionStore.Cursor, current: DetectionStore.Cursor) throws {
        var a = try DistinctIDs(base), b = try DistinctIDs(current)
        var x = try a.next(), y = try b.next()
        let first = (x, y)
        while let i = x, let j = y {
            if i == j {
                sharesItems = true
                return
            }
            if i < j { x = try a.next() } else { y = try b.next() }
        }
        while x != nil { x = try a.next() }
        while y != nil { y = try b.next() }
        disjoint = ((a.count, first.0), (b.count, first.1))
    }
}

extension MovedCandidates {
    /// One detection pair that changed correctness, in id order: listed up to `cap` each way; crisis-tagged
    /// items and those past the cap are counted only (`settlingMoved` adds them to `moved_total`).
    mutating func add(base: DetectionResult, current: DetectionResult, broken: Bool) {
        let crisis = base.tags.contains("crisis") || current.tags.contains("crisis")
        let listed = broken ? worse.count : better.count
        if crisis || listed >= cap {
            if broken { worseWithheld += 1 } else { betterWithheld += 1 }
            return
        }
        let item = MovedItem(item: current.itemID, change: broken ? "broken" : "fixed",
                             detail: "\(base.predictedLabel) → \(current.predictedLabel) (true \(current.lang.identifier))")
        if broken { worse.append(item) } else { better.append(item) }
    }
}

/// Whether a result is correct, with the locale-equivalence of each (gold, predicted) pair of codes
/// worked out once (`LanguageCode.isEquivalent` asks `Locale`).
struct EquivalenceMemo {
    private var known: [Pair: Bool] = [:]

    private struct Pair: Hashable {
        let gold: String, predicted: String
    }

    mutating func correct(_ result: DetectionResult) -> Bool {
        guard let predicted = result.predicted else { return false }
        if predicted.identifier == result.lang.identifier { return true }
        let pair = Pair(gold: result.lang.identifier, predicted: predicted.identifier)
        if let value = known[pair] { return value }
        let value = predicted.isEquivalent(to: result.lang)
        known[pair] = value
        return value
    }
}

/// A run's distinct item ids in order, merged (`ResultMerge`) from one pass over each of its configs' results.
private struct DistinctIDs {
    private var merge: ResultMerge
    private var last: String?
    private(set) var count = 0

    init(_ cursor: DetectionStore.Cursor) throws {
        let passes = try (0..<cursor.configCount).map { _ in try cursor.reopened() }
        merge = try ResultMerge(sources: passes.count, order: .id) { config in try passes[config].next(ofConfig: config).map { (config, $0) } }
    }

    mutating func next() throws -> String? {
        while let head = try merge.next() {
            let id = head.result.itemID
            if id == last { continue }
            last = id
            count += 1
            return id
        }
        return nil
    }
}
