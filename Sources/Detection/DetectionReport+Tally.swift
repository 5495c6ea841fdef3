import Support
import Corpus
import Provenance

extension DetectionReport {
    /// Builds the report from results in config order (tests, and `merge` of shards' logs).
    package init(configs: [DetectionRunner.ResolvedConfig], results: [DetectionResult], timings: [DetectionRunner.Timing],
                provenance: Provenance) {
        self.init(echoes: configs.map(ConfigEcho.init), results: results, timings: timings, provenance: provenance)
    }

    /// Builds the report from configs as echoed by an earlier report, and results in canonical order.
    package init(echoes: [ConfigEcho], results: [DetectionResult], timings: [DetectionRunner.Timing], provenance: Provenance) {
        var tally = DetectionTally(echoes: echoes)
        let configIndex = echoes.map(\.name).firstPositions
        var itemIndex: [String: Int] = [:]
        for result in results {
            guard let config = configIndex[result.config] else { continue }
            let item = itemIndex[result.itemID] ?? itemIndex.count
            itemIndex[result.itemID] = item
            tally.add(result, config: config, item: item)
        }
        self.init(tally: tally, timings: timings, provenance: provenance)
    }

    /// Builds the report from the running aggregates of a run.
    package init(tally: DetectionTally, timings: [DetectionRunner.Timing], provenance: Provenance) {
        schemaVersion = Self.schemaVersion
        self.provenance = provenance
        configs = tally.echoes
        let withErrors = Self.configsWithErrors(tally)
        failedConfigs = withErrors.filter(\.isFailed)
        partlyFailedConfigs = withErrors.filter { !$0.isFailed }
        var slices: [Slice] = []
        var confusion: [String: ConfusionMatrix] = [:]
        for (echo, own) in zip(tally.echoes, tally.configs) {
            let detector = own.detector ?? echo.detector
            func add(_ slice: String, _ subset: ClassificationMetrics.Tally?) {
                if let subset, subset.n > 0 { slices.append(Slice(config: echo.name, detector: detector, slice: slice, metrics: subset.metrics(codes: tally.equivalence.codes))) }
            }
            add("all", own.all)
            let languages = own.byLanguage.indices.filter { own.byLanguage[$0] != nil }.sorted { tally.equivalence.codes[$0] < tally.equivalence.codes[$1] }
            for number in languages { add(SliceKey.lang("\(tally.equivalence.codes[number])").description, own.byLanguage[number]) }
            for (tag, subset) in own.byTag.sorted(by: { $0.key < $1.key }) { add(SliceKey.tag(tag).description, subset) }
            for bucket in LengthBucket.allCases { add(SliceKey.length(bucket.rawValue).description, own.byLength[bucket]) }
            for (corpus, part) in own.corpora.sorted(by: { $0.key < $1.key }) {
                for number in part.byLanguage.keys.sorted(by: { tally.equivalence.codes[$0] < tally.equivalence.codes[$1] }) {
                    add(SliceKey.within(corpus: corpus, .lang, "\(tally.equivalence.codes[number])").description, part.byLanguage[number])
                }
                for bucket in LengthBucket.allCases {
                    add(SliceKey.within(corpus: corpus, .length, bucket.rawValue).description, part.byLength[bucket])
                }
            }
            confusion[echo.name] = own.confusion.matrix(codes: tally.equivalence.codes)
        }
        self.slices = slices
        self.confusion = confusion
        var comparisons: [Comparison] = []
        for (i, base) in tally.echoes.enumerated() {
            for (j, other) in tally.echoes.enumerated().dropFirst(i + 1) where Self.compared(base.name, other.name) {
                let pair = tally.configs[i].outcomes.paired(with: tally.configs[j].outcomes)
                comparisons.append(Comparison(base: base.name, other: other.name, n: pair.n, fixed: pair.fixed, broken: pair.broken,
                                              pValue: Statistics.mcnemarExact(b: pair.fixed, c: pair.broken)))
            }
        }
        self.comparisons = comparisons
        self.timings = timings
        items = tally.itemCount
        files = Self.perItemFiles
        definitions = Self.metricDefinitions
    }
}
