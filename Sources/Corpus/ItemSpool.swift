import Support
import Foundation
import ByteIO

/// Sorts items by id with bounded memory: items are kept, in their spool encoding (`ItemCoding`), until
/// `itemsInMemory` of them have come, then sorted (id, then file order) and written as a run to the
/// spool directory, on a thread of its own while the next run fills (so at most two runs are in
/// memory); `finish` merges the runs
/// into one file in canonical order. Equal ids meet in the merge, so duplicates are found there: the
/// first in file order is kept and each later one is a problem at its own line, as `CorpusLoader.read`
/// reports them. A corpus that fits stays in memory and touches no file. (A corpus whose ids already
/// increase in file order is not spooled at all: `CorpusLoader.loadSorted` reads it again from its files.)
package final class ItemSpool {
    /// Measured (`bench corpus --items-in-memory`, docs/benchmarks.md "The spool threshold"): reading
    /// 2,000,000 items in id order peaked at 175 MB with 200,000 against 300 MB with 1,000,000 and
    /// 1 GB all in memory; the times, from one run beside another build, differed by a fifth at most.
    package static let defaultItemsInMemory = 200_000

    private let itemsInMemory: Int
    private let parent: URL
    private var directory: URL?
    private var pending = EncodedRun()
    private var runs: [URL] = []
    private var files: [String] = []
    private var fileNumbers: [String: UInt32] = [:]
    private var sequence: UInt64 = 0
    private var handedOver = false
    private let runWriter = RunWriter()
    /// The last file numbered and its number, to number items without hashing each path.
    private var lastFile: (path: String, number: UInt32)?

    /// Spools into a fresh folder inside `directory` (default: the system's temporary folder), made
    /// only when the first run is written and removed with the result (or when this spool is dropped).
    package init(itemsInMemory: Int = defaultItemsInMemory, directory: URL? = nil) {
        self.itemsInMemory = max(1, itemsInMemory)
        parent = directory ?? FileManager.default.temporaryDirectory
    }

    /// Items added so far.
    var count: Int { Int(sequence) }

    deinit {
        runWriter.drain()
        if !handedOver, let directory { try? FileManager.default.removeItem(at: directory) }  // scratch space only
    }

    /// Adds the next item in file order.
    package func add(_ item: CorpusItem) throws {
        if lastFile?.path != item.source.file { lastFile = (item.source.file, fileNumber(item.source.file)) }
        pending.append(item, sequence: sequence, file: lastFile!.number)
        sequence += 1
        if pending.count >= itemsInMemory { try spill() }
    }

    /// The items in canonical order without duplicates, and a problem for each duplicate.
    package func finish(sources: [CorpusSource]) throws -> (SortedCorpus, [CorpusProblem]) {
        if runs.isEmpty {
            let entries = pending.decoded(files: files)
            let (items, duplicates) = Self.canonical(entries)
            pending = EncodedRun()
            return (SortedCorpus(items: items, sources: sources), duplicates)
        }
        try spill()
        try runWriter.wait()
        let directory = try spoolDirectory()
        let url = directory.appendingPathComponent("items.spool")
        let writer = try BufferedFileWriter(url: url)
        let readers = try runs.map { try SpoolReader(url: $0, files: files) }
        var merge = try RunMerge(readers)
        var duplicates: [CorpusProblem] = []
        var count = 0
        // A copy of the last record kept (not a reference to the run's head, which is refilled in place).
        var last = SpoolRecord(), hasLast = false
        while let record = try merge.next() {
            if hasLast, last.hasSameID(as: record) {
                duplicates.append(Self.duplicate(id: record.id, at: record.source(files), firstAt: last.source(files)))
                continue
            }
            record.bytes.withBytes { last.replace(with: $0) }
            hasLast = true
            writer.append(bytes: record.bytes)  // the runs' encoding is the merged file's
            try writer.flushIfFull()
            count += 1
        }
        try writer.finish()
        for run in runs { try? FileManager.default.removeItem(at: run) }  // merged: scratch only
        runs = []
        handedOver = true
        return (SortedCorpus(spool: [url], directory: directory, files: files, count: count, sources: sources), duplicates)
    }

    /// Hands the pending items to the run writer, which sorts them (id, then file order) and writes them
    /// as a run while the next run fills.
    private func spill() throws {
        guard pending.count > 0 else { return }
        let url = try spoolDirectory().appendingPathComponent("run-\(runs.count).spool")
        try runWriter.write(&pending, to: url)
        runs.append(url)
    }

    /// Canonical order: by id, then file order — of items in memory; spooled records are compared on
    /// their bytes in the same order (`SpoolRecord.isBefore`).
    static func before(_ a: (item: CorpusItem, sequence: UInt64), _ b: (item: CorpusItem, sequence: UInt64)) -> Bool {
        (a.item.id, a.sequence) < (b.item.id, b.sequence)
    }

    /// `items` (each with its place in file order) in canonical order, a duplicate id keeping its first
    /// item in file order; and a problem for each later one.
    static func canonical(_ items: [(item: CorpusItem, sequence: UInt64)]) -> (items: [CorpusItem], duplicates: [CorpusProblem]) {
        var sorted: [CorpusItem] = []
        sorted.reserveCapacity(items.count)
        var duplicates: [CorpusProblem] = []
        for (item, _) in items.sorted(by: before) {
            if let last = sorted.last, last.id == item.id {
                duplicates.append(duplicate(id: item.id, at: item.source, firstAt: last.source))
            } else {
                sorted.append(item)
            }
        }
        return (sorted, duplicates)
    }

    /// The problem of a duplicate id, as `CorpusLoader.read` words it.
    private static func duplicate(id: String, at source: SourceLocation, firstAt first: SourceLocation) -> CorpusProblem {
        CorpusProblem(source, "duplicate id '\(id)' (first at \(first))")
    }

    private func fileNumber(_ path: String) -> UInt32 {
        if let number = fileNumbers[path] { return number }
        let number = UInt32(files.count)
        files.append(path)
        fileNumbers[path] = number
        return number
    }

    private func spoolDirectory() throws -> URL {
        if let directory { return directory }
        let made = parent.appendingPathComponent(".langbench-spool-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString.prefix(8))")
        do {
            try FileManager.default.createDirectory(at: made, withIntermediateDirectories: true)
        } catch {
            throw CorpusError.unreadable(path: made.path, reason: "cannot make the spool folder for sorting the corpus: \((error as NSError).localizedDescription)")
        }
        directory = made
        return made
    }
}
