import Foundation
import Synchronization

/// A corpus in canonical order (by id, no duplicates) that can be read from the start as often as
/// needed, a batch at a time: held in memory when small, else in spool files on disk (removed with
/// this value) read one after another, or — when its file order is the canonical order — read again
/// from its own files (`CorpusReplay`); memory does not grow with the corpus.
public final class SortedCorpus: Sendable {
    private enum Storage: Sendable {
        case memory([CorpusItem])
        case spool(runs: [URL], files: [String])
        case replay(CorpusReplay)
    }

    /// Items, after removing duplicate ids.
    package let count: Int
    /// The files read, with their SHA-256 (a replayed corpus's files are hashed by the first read to their
    /// end, or now if there was none: ask after the items have been read).
    package var sources: [CorpusSource] {
        get throws {
            guard case .replay(let replay) = storage else { return firstSources }
            return try replay.sources(firstSources)
        }
    }
    /// The SHA-256 a read of a replayed corpus found for the file at `path` (nil before a read to its end).
    func replayDigest(_ path: String) -> String? {
        guard case .replay(let replay) = storage else { return nil }
        return replay.digests[path]
    }

    /// The sources as the first read gave them (a replayed corpus's without hashes).
    private let firstSources: [CorpusSource]
    private let storage: Storage
    /// The spool's folder, removed on deinit.
    private let directory: URL?

    /// An in-memory corpus in canonical order; a duplicate id keeps its first item. For a corpus already
    /// read whole (a shard of a suite run, tests): `CorpusLoader.loadSorted` sorts one that fits the same way.
    package convenience init(_ corpus: Corpus) {
        let items = ItemSpool.canonical(corpus.items.enumerated().map { ($0.element, UInt64($0.offset)) }).items
        self.init(items: items, sources: corpus.sources)
    }

    /// Items already in canonical order.
    init(items: [CorpusItem], sources: [CorpusSource]) {
        count = items.count
        firstSources = sources
        storage = .memory(items)
        directory = nil
    }

    /// Items in `runs`, which in this order hold the canonical order (one merged file, or the runs of
    /// a corpus read in order).
    init(spool runs: [URL], directory: URL, files: [String], count: Int, sources: [CorpusSource]) {
        self.count = count
        firstSources = sources
        storage = .spool(runs: runs, files: files)
        self.directory = directory
    }

    /// A corpus in order in its own files, `count` items.
    init(replay: CorpusReplay, count: Int, sources: [CorpusSource]) {
        self.count = count
        firstSources = sources
        storage = .replay(replay)
        directory = nil
    }

    deinit {
        if let directory { try? FileManager.default.removeItem(at: directory) }  // scratch space only
    }

    /// Whether the items are in a spool file rather than in memory.
    package var isSpooled: Bool {
        if case .spool = storage { return true }
        return false
    }

    /// Whether the items are read again from the corpus files.
    package var isReplayed: Bool {
        if case .replay = storage { return true }
        return false
    }

    /// A reader from the first item.
    package func cursor() throws -> Cursor {
        switch storage {
        case .memory(let items): return Cursor(source: .memory(items, next: 0), owner: self)
        case .spool(let runs, let files): return Cursor(source: .spool(try SpoolReader(url: runs[0], files: files), rest: runs.dropFirst(), files: files), owner: self)
        case .replay(let replay): return Cursor(source: .replay(CorpusReplay.Stream(replay)), owner: self)
        }
    }

    /// Every item in order (for small corpora and tests; this is what the cursor avoids at scale).
    package func allItems() throws -> [CorpusItem] {
        let cursor = try cursor()
        var items: [CorpusItem] = []
        items.reserveCapacity(count)
        while true {
            let batch = try cursor.next(4096)
            if batch.isEmpty { return items }
            items += batch
        }
    }

    /// Reads the items in canonical order, a batch at a time. Used by one task at a time (handed from
    /// one batch's task to the next); the lock, taken once a batch, is never contended.
    package final class Cursor: Sendable {
        fileprivate enum Source {
            case memory([CorpusItem], next: Int)
            /// The file being read, and the files after it.
            case spool(SpoolReader, rest: ArraySlice<URL>, files: [String])
            case replay(CorpusReplay.Stream)
        }

        private let source: Mutex<Source>
        /// Keeps the spool file alive while it is read.
        private let owner: SortedCorpus

        fileprivate init(source: sending Source, owner: SortedCorpus) {
            self.source = Mutex(source)
            self.owner = owner
        }

        /// The next `count` items (fewer at the end; empty when there are none left), as a slice that may
        /// share the storage items were read into (indices need not start at 0).
        package func next(_ count: Int) throws -> ArraySlice<CorpusItem> {
            try source.withLock { source in try Self.next(count, from: &source) }
        }

        private static func next(_ count: Int, from source: inout Source) throws -> ArraySlice<CorpusItem> {
            switch source {
            case .memory(let items, let next):
                let end = min(items.count, next + max(0, count))
                source = .memory(items, next: end)
                return items[next..<end]
            case .spool(var reader, var rest, let files):
                var batch: [CorpusItem] = []
                batch.reserveCapacity(count)
                while batch.count < count {
                    if let record = try reader.next() {
                        batch.append(record.item)
                    } else if let url = rest.popFirst() {
                        reader = try SpoolReader(url: url, files: files)
                        source = .spool(reader, rest: rest, files: files)
                    } else {
                        break
                    }
                }
                return batch[...]
            case .replay(let stream):
                return try stream.next(count)
            }
        }
    }
}
