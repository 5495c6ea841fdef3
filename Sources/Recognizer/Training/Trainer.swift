import Foundation

/// Builds a `LanguageModel` from exported word lists, deterministically: the same lists and options give
/// the same model file, byte for byte (counts are fixed-point integers, every table is filled in sorted
/// order, and no result depends on dictionary iteration order).
public enum Trainer {
    /// Trains a model from lists of any scripts; lists are grouped by script (one `ScriptModel` each for
    /// Latin, Cyrillic and CJK), and languages of other scripts need no list.
    public static func train(lists: [WordList], options: TrainingOptions = TrainingOptions()) throws -> LanguageModel {
        guard !lists.isEmpty else { throw TrainingError.noLists }
        var byScript: [Script: [WordList]] = [:]
        for list in lists.sorted(by: { $0.language < $1.language }) {
            // Scripts of a single language (Hangul → ko, …) are recognised by script alone.
            guard let script = list.script, script.singleLanguage == nil else { continue }
            byScript[script, default: []].append(list)
        }
        let models = byScript.keys.sorted().map { trainScript($0, lists: byScript[$0]!, options: options) }
        let metadata = ModelMetadata(
            sources: lists.sorted { $0.language < $1.language }.map(\.source),
            training: options.summary,
            licence: "Word-frequency data from wordfreq (CC BY-SA 4.0); be from hunspell-be (CC BY-SA 3.0); "
                + "kk from hunspell-kk and forms added to sr from hunspell-sr (both used under MPL 1.1); "
                + "zh-Hant converted by OpenCC. Shared under CC BY-SA 4.0; see Models/PROVENANCE.md.")
        return LanguageModel(scriptModels: models, parameters: options.recognition, metadata: metadata)
    }

    /// Trains and encodes in one step, returning the model file's bytes.
    public static func trainModelFile(lists: [WordList], options: TrainingOptions = TrainingOptions()) throws -> Data {
        try encode(train(lists: lists, options: options))
    }

    /// The bytes of a model file for a model.
    public static func encode(_ model: LanguageModel) throws -> Data {
        try ModelFile.encode(ModelFile.Contents(scripts: model.scriptModels.compactMap { $0 },
                                                parameters: model.parameters, metadata: model.metadata))
    }

    static func trainScript(_ script: Script, lists: [WordList], options: TrainingOptions) -> ScriptModel {
        var alphabetSet = Set<UInt32>()
        for list in lists { for entry in list.words { alphabetSet.formUnion(entry.word) } }
        let alphabet = alphabetSet.sorted().prefix(Int(UInt16.max) - 3).map { $0 }
        var symbolOf: [UInt32: UInt32] = [:]
        for (i, v) in alphabet.enumerated() { symbolOf[v] = UInt32(i + 3) }
        let vocabulary = Double(alphabet.count + 2)

        let counts = lists.map { list -> NGramCounts in
            var trimmed = list
            if list.kind == .frequency && options.charModelMinFrequency > 0 {
                trimmed.words = list.words.filter { $0.weight >= options.charModelMinFrequency }
            }
            return NGramCounts(list: trimmed, symbolOf: symbolOf, damping: options.frequencyDamping,
                               addedFormWeight: options.addedFormCharWeight)
        }
        // Keep an n-gram when some language has enough word types containing it (suffix- and prefix-closed).
        var kept = Set<NGramKey>()
        for s in 1...(alphabet.count + 2) { kept.insert(NGramKey([UInt32(s)])) }
        for c in counts {
            for (key, value) in c.ngrams {
                let k = key.order
                if k == 1 || Int(value.types) >= options.minTypes[k - 1] { kept.insert(key) }
            }
        }
        let entries = kept.sorted()
        var index: [NGramKey: Int] = [:]
        index.reserveCapacity(entries.count)
        for (i, key) in entries.enumerated() { index[key] = i }
        let suffixIndex = entries.map { $0.order > 1 ? index[$0.suffix]! : -1 }

        let width = lists.count
        var logpRows = [UInt8](repeating: 0, count: entries.count * width)
        var bowRows = [UInt8](repeating: 0, count: entries.count * width)
        var probability = [Double](repeating: 0, count: entries.count)
        for (l, c) in counts.enumerated() {
            let root = c.histories[.root] ?? HistoryStats()
            for (i, key) in entries.enumerated() {
                let count = Double(c.ngrams[key]?.weight ?? 0)
                let p: Double
                if key.order == 1 {
                    let n1 = Double(root.distinct), total = Double(root.total)
                    p = total > 0 ? (count + n1 / vocabulary) / (total + n1) : 1 / vocabulary
                } else {
                    let lower = probability[suffixIndex[i]]
                    if let h = c.histories[key.prefix], h.total > 0 {
                        p = (count + Double(h.distinct) * lower) / (Double(h.total) + Double(h.distinct))
                    } else {
                        p = lower
                    }
                }
                probability[i] = p
                logpRows[i * width + l] = NGramTable.quantizeLogp(Foundation.log(p))
                if let h = c.histories[key], h.total > 0 {
                    let n1 = Double(h.distinct)
                    bowRows[i * width + l] = NGramTable.quantizeBow(Foundation.log(n1 / (Double(h.total) + n1)))
                }
            }
        }
        let tableEntries = entries.enumerated().map { i, key in
            (order: key.order, hash: key.tableHash, logp: logpRows[(i * width)..<((i + 1) * width)],
             bow: bowRows[(i * width)..<((i + 1) * width)])
        }
        let ngrams = NGramTable.build(width: width, entries: tableEntries)
        let (postings, formSets) = wordPostings(lists: lists, options: options)
        let words = WordTable.build(postings: postings, formSets: formSets)
        return ScriptModel(script: script, languages: lists.map(\.language), alphabet: alphabet,
                           ngrams: ngrams, words: words)
    }

    static func wordPostings(lists: [WordList], options: TrainingOptions)
        -> (postings: [(hash: UInt64, language: Int, level: UInt32)], formSets: [FormSet]) {
        var postings: [(hash: UInt64, language: Int, level: UInt32)] = []
        var formSets: [FormSet] = []
        var borrowedFrequency: [UInt64: Double] = [:]
        for list in lists where list.kind == .frequency {
            for entry in list.words {
                let h = Hashing.word(entry.word)
                borrowedFrequency[h] = max(borrowedFrequency[h] ?? 0, entry.weight)
            }
        }
        for (l, list) in lists.enumerated() {
            switch list.kind {
            case .frequency:
                // Words at the floor level (the added dictionary forms and the rarest listed words) all have
                // one probability, so they go into a compact set (2.5 bytes a word instead of 5).
                let floorLevel = WordTable.level(probability: options.wordTableMinFrequency)
                var seen = Set<UInt64>()
                var floor: [UInt64] = []
                for entry in list.words where entry.weight >= options.wordTableMinFrequency {
                    let h = Hashing.word(entry.word)
                    guard seen.insert(h).inserted else { continue }
                    let level = WordTable.level(probability: entry.weight)
                    if level == floorLevel {
                        floor.append(h)
                    } else {
                        postings.append((h, l, level))
                    }
                }
                if floor.count >= options.compactFloorLevelMinimum {
                    formSets.append(FormSet.build(language: l, level: floorLevel, hashes: floor.sorted()))
                } else {
                    postings += floor.map { ($0, l, floorLevel) }
                }
            case .forms:
                guard options.formsInWordTable, !list.words.isEmpty else { continue }
                let floor = options.formsMass / Double(list.words.count)
                var seen = Set<UInt64>()
                var plain: [UInt64] = []
                for entry in list.words {
                    let h = Hashing.word(entry.word)
                    guard seen.insert(h).inserted else { continue }
                    let borrowed = options.borrowFormFrequencies ? (borrowedFrequency[h] ?? 0) * options.borrowedFrequencyFactor : 0
                    if borrowed > floor {
                        postings.append((h, l, WordTable.level(probability: borrowed)))
                    } else if !options.formsOnlyWhenBorrowed {
                        plain.append(h)
                    }
                }
                if !plain.isEmpty {
                    formSets.append(FormSet.build(language: l, level: WordTable.level(probability: floor), hashes: plain.sorted()))
                }
            }
        }
        postings.sort { $0.hash != $1.hash ? $0.hash < $1.hash : $0.language < $1.language }
        return (postings, formSets)
    }
}

/// Weighted counts of one history: the total weight of its continuations and how many distinct ones.
struct HistoryStats {
    var total: Int64 = 0
    var distinct: Int32 = 0
}

/// One language's n-gram counts: weight (fixed point, so that sums do not depend on order) and the number
/// of list words containing each n-gram.
struct NGramCounts {
    struct Value {
        var weight: Int64 = 0
        var types: Int32 = 0

        mutating func add(_ w: Int64) {
            weight += w
            types += 1
        }
    }

    var ngrams: [NGramKey: Value] = [:]
    var histories: [NGramKey: HistoryStats] = [:]

    static let fixedPointScale = 1024.0

    init(list: WordList, symbolOf: [UInt32: UInt32], damping: Double, addedFormWeight: Double = 1) {
        let minWeight = list.words.map(\.weight).filter { $0 > 0 }.min() ?? 1
        var symbols: [UInt32] = []
        for entry in list.words {
            let w: Int64
            switch list.kind {
            case .frequency:
                let factor = addedFormWeight != 1 && list.addedForms.contains(entry.word) ? addedFormWeight : 1
                w = Int64((pow(max(entry.weight, minWeight) / minWeight, damping) * Self.fixedPointScale * factor).rounded())
                if w == 0 { continue }
            case .forms:
                w = Int64(Self.fixedPointScale)
            }
            symbols.removeAll(keepingCapacity: true)
            symbols.append(ScriptModel.boundary)
            for v in entry.word { symbols.append(symbolOf[v] ?? ScriptModel.otherLetter) }
            symbols.append(ScriptModel.boundary)
            for i in 1..<symbols.count {
                var lo: UInt64 = 0
                var hi: UInt16 = 0
                // Build the n-grams ending at i from order 1 upwards: symbol j of an order-k n-gram is sym[i-k+1+j].
                for k in 1...min(NGramTable.maxOrder, i + 1) {
                    if k == 5 { hi = UInt16(symbols[i]); lo = 0
                        for j in 0..<4 { lo |= UInt64(symbols[i - 4 + j]) << (16 * UInt64(j)) }
                    } else {
                        lo = 0
                        for j in 0..<k { lo |= UInt64(symbols[i - k + 1 + j]) << (16 * UInt64(j)) }
                    }
                    let key = NGramKey(lo: lo, hi: hi)
                    ngrams[key, default: Value()].add(w)
                }
            }
        }
        for (key, value) in ngrams {
            let h = key.order == 1 ? NGramKey.root : key.prefix
            histories[h, default: HistoryStats()].total += value.weight
            histories[h, default: HistoryStats()].distinct += 1
        }
    }
}
