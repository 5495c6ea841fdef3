import Foundation

/// Reads corpus files of any supported format, checking every item: into one in-memory `Corpus`
/// (`load`, `read`), or in id order through a spool on disk when the corpus may not fit in memory
/// (`loadSorted`). Files are read a block at a time either way.
public struct CorpusLoader: Sendable {
    /// Forces a format instead of detecting it.
    package var format: CorpusFormat?
    /// Bytes read at a time; results do not depend on it (tests make it tiny to cut every line).
    var blockSize = FileChunks.defaultBlockSize
    /// Blocks parsed and validated at once on worker threads where the format allows it; results do
    /// not depend on it (1 reads every block on the calling thread).
    var workers = ProcessInfo.processInfo.activeProcessorCount

    package init(format: CorpusFormat? = nil) {
        self.format = format
    }

    /// Everything a validation pass learns: the items that are fine, and every problem.
    package struct Outcome: Sendable {
        package var corpus: Corpus
        package var problems: [CorpusProblem]
        /// Paths that were passed over (documentation files), for a note to the user.
        package var skippedPaths: [String]
        /// Rows a format defines as skippable (Tatoeba's undetermined language).
        package var skippedRows: Int
    }

    /// What reading learns besides the items themselves.
    struct Pass {
        var sources: [CorpusSource] = []
        var problems: [CorpusProblem] = []
        var skippedPaths: [String] = []
        var skippedRows = 0
    }

    /// Loads `paths`, throwing `CorpusError.invalid` with every problem when there are any.
    package func load(_ paths: [String]) throws -> Corpus {
        let outcome = try read(paths)
        if !outcome.problems.isEmpty { throw CorpusError.invalid(outcome.problems) }
        if outcome.corpus.items.isEmpty { throw CorpusError.empty(paths: paths) }
        return outcome.corpus
    }

    /// Reads `paths` and reports problems instead of throwing on them. Throws only when a path cannot
    /// be read at all or its format is unknown.
    package func read(_ paths: [String]) throws -> Outcome {
        var items: [CorpusItem] = []
        var pass = try forEachItem(paths) { items.append($0) }
        let duplicates = Self.duplicateIDs(items)
        if !duplicates.isEmpty {
            pass.problems += duplicates
            items = Self.removingDuplicates(items)
        }
        pass.problems.sort { ($0.location.file, $0.location.line) < ($1.location.file, $1.location.line) }
        return Outcome(corpus: Corpus(items: items, sources: pass.sources), problems: pass.problems,
                       skippedPaths: pass.skippedPaths, skippedRows: pass.skippedRows)
    }

    /// Loads `paths` in canonical order (by id) with memory bounded by `itemsInMemory`, whatever the
    /// corpus's size. The first read checks only that the ids increase in file order (`IDOrder`: no item
    /// made). If they do, a corpus of at least `itemsInMemory` items is read again from its files whenever
    /// its items are needed (`CorpusReplay`), and a smaller one is read again once into memory (checked
    /// as a replay is). If they do not, the files are read again into a spool (`ItemSpool`: past
    /// `itemsInMemory` items, sorted in runs on disk and merged). With `shard`, only its items are kept,
    /// read once into the spool (a replay would read and filter every item at each pass); a shard may be
    /// empty. Throws `CorpusError.invalid` with every problem (duplicate ids included) when there are any.
    package func loadSorted(_ paths: [String], shard: Shard? = nil, itemsInMemory: Int = ItemSpool.defaultItemsInMemory,
                           spoolDirectory: URL? = nil) throws -> SortedCorpus {
        // Stamped before the first read. `try?`: a path that cannot be stamped is only read into the spool,
        // and the read below reports why it cannot be read, if it cannot.
        if shard == nil, var replay = try? CorpusReplay(paths: paths, loader: self) {
            let order = IDOrder()
            do {
                let pass = try forEachItem(paths, .ids(order.add))
                try Self.requireNoProblems(pass.problems)  // in order: no duplicates
                if order.count == 0 { throw CorpusError.empty(paths: paths) }
                replay.counted(pass.sources)
                let replayed = SortedCorpus(replay: replay, count: order.count, sources: pass.sources)
                if order.count >= max(1, itemsInMemory) { return replayed }
                let items = try replayed.allItems()
                return SortedCorpus(items: items, sources: try replayed.sources)
            } catch is IDOrder.Broken {}
        }
        let spool = ItemSpool(itemsInMemory: itemsInMemory, directory: spoolDirectory)
        let pass = try forEachItem(paths) { item in
            if shard?.contains(item.id) ?? true { try spool.add(item) }
        }
        let (sorted, duplicates) = try spool.finish(sources: pass.sources)
        try Self.requireNoProblems(pass.problems + duplicates)
        if sorted.count == 0 && (shard == nil || pass.sources.allSatisfy { $0.items == 0 }) { throw CorpusError.empty(paths: paths) }
        return sorted
    }

    private static func requireNoProblems(_ problems: [CorpusProblem]) throws {
        guard !problems.isEmpty else { return }
        throw CorpusError.invalid(problems.sorted { ($0.location.file, $0.location.line) < ($1.location.file, $1.location.line) })
    }

    /// Reads every valid item of `paths` in file order into `body`.
    func forEachItem(_ paths: [String], _ body: @escaping (CorpusItem) throws -> Void) throws -> Pass {
        try forEachItem(paths, .items(body))
    }

    /// Reads every valid item of `paths` in file order into `sink`, a block of lines at a time, and
    /// collects the problems instead of throwing them. Throws only when a path cannot be read at all
    /// or its format is unknown (or `sink` throws).
    func forEachItem(_ paths: [String], _ sink: ItemSink) throws -> Pass {
        var pass = Pass()
        var codes = ItemValidator.CodeCache()
        for path in paths {
            for file in try Self.expand(path) {
                if file.isDocumentation { pass.skippedPaths.append(file.path); continue }
                try readItems(of: file, into: &pass, codes: &codes, sink)
            }
        }
        return pass
    }

    private static func duplicateIDs(_ items: [CorpusItem]) -> [CorpusProblem] {
        // Proving there are none needs only the ids; where each was first seen is looked up only when
        // there is a duplicate to report.
        var seen = Set<String>(minimumCapacity: items.count)
        guard items.contains(where: { !seen.insert($0.id).inserted }) else { return [] }
        var first: [String: SourceLocation] = [:]
        var problems: [CorpusProblem] = []
        for item in items {
            if let earlier = first[item.id] {
                problems.append(CorpusProblem(item.source, "duplicate id '\(item.id)' (first at \(earlier))"))
            } else {
                first[item.id] = item.source
            }
        }
        return problems
    }

    private static func removingDuplicates(_ items: [CorpusItem]) -> [CorpusItem] {
        var seen = Set<String>()
        return items.filter { seen.insert($0.id).inserted }
    }
}
