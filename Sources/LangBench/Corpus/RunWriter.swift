import Dispatch
import Foundation

/// Sorts and writes the spool's runs on a thread of its own, one run at a time, so that reading goes on
/// while a run is written: at most one run is being written while the next fills.
final class RunWriter {
    /// The run being written, whose outcome `wait` collects.
    private var writing: DispatchWorkItem?
    private var run: Run?
    private let queue = DispatchQueue(label: "langbench.spool-runs")

    /// A run handed to the queue: its items, sorted there (owned by the queue once handed
    /// over), and the error of writing them; read back only after waiting on the write.
    private final class Run: @unchecked Sendable {
        var entries: [(item: CorpusItem, sequence: UInt64)]
        var error: (any Error)?

        init(_ entries: [(item: CorpusItem, sequence: UInt64)]) {
            self.entries = entries
        }
    }

    deinit { drain() }

    /// Waits for the run being written, if any, ignoring its outcome (the spool is being dropped).
    func drain() {
        writing?.wait()
    }

    /// Waits for the run being written (if any) and throws its error.
    func wait() throws {
        guard let writing, let run else { return }
        writing.wait()
        self.writing = nil
        self.run = nil
        if let error = run.error { throw error }
    }

    /// Takes `entries` (leaving them empty), then sorts them in canonical order (unless `inOrder`: they
    /// are in it) and writes them to `url`, numbering their files by `files` (which names every one of
    /// them), once the run before is written.
    func write(_ entries: inout [(item: CorpusItem, sequence: UInt64)], inOrder: Bool, files: [String: UInt32], to url: URL) throws {
        try wait()
        let run = Run(entries)
        entries = []  // the run's buffer is the queue's alone: not copied
        let work = DispatchWorkItem {
            do {
                let order = inOrder ? Array(run.entries.indices) : Self.canonicalOrder(run.entries)
                try Self.write(run.entries, in: order, files: files, to: url)
            } catch {
                run.error = error
            }
            run.entries = []
        }
        self.run = run
        writing = work
        queue.async(execute: work)
    }

    /// The positions of `entries` in canonical order. Sorting positions moves integers, not items (whose
    /// strings would be retained and released at every move).
    private static func canonicalOrder(_ entries: [(item: CorpusItem, sequence: UInt64)]) -> [Int] {
        entries.withUnsafeBufferPointer { entries in
            Array(entries.indices).sorted { ItemSpool.before(entries[$0], entries[$1]) }
        }
    }

    private static func write(_ entries: [(item: CorpusItem, sequence: UInt64)], in order: [Int], files: [String: UInt32], to url: URL) throws {
        let writer = try BufferedFileWriter(url: url)
        var bytes: [UInt8] = []
        var last: (path: String, number: UInt32)?
        for index in order {
            let (item, sequence) = entries[index]
            bytes.removeAll(keepingCapacity: true)
            // The spool numbers every file of a run before handing it over; items of one file come
            // together, and comparing with the last path is far cheaper than hashing it.
            if last?.path != item.source.file { last = (item.source.file, files[item.source.file]!) }
            ItemCoding.encode(item, sequence: sequence, file: last!.number, into: &bytes)
            writer.append(bytes: bytes)
            try writer.flushIfFull()
        }
        try writer.finish()
    }
}
