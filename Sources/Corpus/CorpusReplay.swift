import Support
import Foundation
import ByteIO
import Synchronization

/// A corpus whose file order is its canonical order (ids increasing strictly, hence none repeated), read
/// again from its files whenever its items are needed instead of being spooled: no copy of the corpus on
/// disk, and a parse per pass instead of an encoding, a write and a decoding per item. Each file must
/// still be the one that was checked: its size and modification time are compared when it is opened and
/// when it ends (as `make` and `rsync` tell a changed file), and the items it gives must read without a
/// problem and number what they did.
struct CorpusReplay: Sendable {
    /// A file's size and modification time.
    struct Stamp: Sendable, Equatable {
        var size: Int
        var modified: Date

        init(path: String) throws {
            do {
                let attributes = try FileManager.default.attributesOfItem(atPath: path)
                guard let size = (attributes[.size] as? NSNumber)?.intValue, let modified = attributes[.modificationDate] as? Date else {
                    throw CorpusError.unreadable(path: path, reason: "its size and modification time cannot be read")
                }
                self.size = size
                self.modified = modified
            } catch let error as CorpusError {
                throw error
            } catch {
                throw CorpusError.unreadable(path: path, reason: FileKind.reason(error, path: path))
            }
        }
    }

    /// A file read, with its stamp from before the first read and the items it gave then.
    struct File: Sendable {
        var file: CorpusFile
        var stamp: Stamp
        var items = 0
    }

    let loader: CorpusLoader
    private(set) var files: [File]
    /// Each file's SHA-256, from the first read of it to the end (the ids-only first read does not
    /// hash, so that the one thread that hashes is not what the start of a run waits for).
    let digests = Digests()

    /// The files of `paths` as `CorpusLoader.forEachItem` reads them, stamped: made before the first
    /// read, so a change during it shows too.
    init(paths: [String], loader: CorpusLoader) throws {
        self.loader = loader
        files = try paths.flatMap { try CorpusLoader.expand($0) }.filter { !$0.isDocumentation }.map {
            File(file: $0, stamp: try Stamp(path: $0.path))
        }
    }

    /// Takes the item count of each file from the first read (`sources`, in the order read).
    mutating func counted(_ sources: [CorpusSource]) {
        for (i, source) in sources.enumerated() where i < files.count && files[i].file.path == source.path {
            files[i].items = source.items
        }
    }

    /// The files as sources, each with the SHA-256 of its bytes: from a read to its end when one was
    /// made, else hashed now. `sources` are the first read's (format and items; its hashes are empty).
    func sources(_ sources: [CorpusSource]) throws -> [CorpusSource] {
        try sources.map { source in
            var source = source
            if let digest = digests[source.path] {
                source.sha256 = digest
            } else {
                source.sha256 = try ReportError.reading(URL(fileURLWithPath: source.path)) { try SHA256.hex(fileAt: URL(fileURLWithPath: source.path)) }
            }
            return source
        }
    }

    /// SHA-256 digests by path, set by whichever stream reads a file to its end first.
    final class Digests: Sendable {
        private let byPath = Mutex<[String: String]>([:])

        subscript(path: String) -> String? {
            get { byPath.withLock { $0[path] } }
            set { byPath.withLock { $0[path] = newValue } }
        }
    }

    /// The error for a file that is not what was read first.
    static func changed(_ path: String, _ what: String) -> CorpusError {
        .unreadable(path: path, reason: "changed while being read (\(what)); run again on files that stay put")
    }

    /// The items in file order, a block of a file at a time (one reader's state, hence a class).
    final class Stream {
        private let replay: CorpusReplay
        private var index = -1
        private var chunks: FileChunks?
        private var reader: RecordReader?
        private var codes = ItemValidator.CodeCache()
        private var items: [CorpusItem] = []
        private var offset = 0
        private var itemsOfFile = 0

        init(_ replay: CorpusReplay) {
            self.replay = replay
        }

        /// The next `count` items (fewer at the end; empty when there are none left): a slice of the block
        /// read, not a copy of its items, unless the batch spans blocks.
        func next(_ count: Int) throws -> ArraySlice<CorpusItem> {
            var batch: ArraySlice<CorpusItem> = []
            while batch.count < count {
                if offset == items.count {
                    guard try refill() else { break }
                }
                let end = min(items.count, offset + count - batch.count)
                if batch.isEmpty {
                    batch = items[offset..<end]
                } else {
                    batch += items[offset..<end]
                }
                offset = end
            }
            // A file whose items have all been given is read to its end now (its checks, and its hash),
            // not only when more items are asked for: a run asks for no more than the corpus holds.
            if offset == items.count, chunks != nil, itemsOfFile == replay.files[index].items { _ = try refill() }
            return batch
        }

        /// Reads blocks until one gives items; false after the last file.
        private func refill() throws -> Bool {
            while true {
                if chunks == nil {
                    index += 1
                    guard index < replay.files.count else { return false }
                    try check(replay.files[index])
                    let path = replay.files[index].file.path
                    chunks = try FileChunks(path: path, blockSize: replay.loader.blockSize, hashing: replay.digests[path] == nil)
                    reader = nil
                    itemsOfFile = 0
                }
                let file = replay.files[index]
                guard let block = try chunks!.nextBlock() else {
                    try check(file)
                    if itemsOfFile != file.items { throw CorpusReplay.changed(file.file.path, "\(itemsOfFile) items now, \(file.items) before") }
                    if chunks!.hashes { replay.digests[file.file.path] = chunks!.sha256 }
                    chunks = nil
                    continue
                }
                if reader == nil { reader = try replay.loader.makeReader(for: file.file) { TextLines(block).lines.first?.text } }
                let outcome = BlockReader.read(block, path: file.file.path, with: &reader!, codes: codes)
                if let problem = outcome.problems.first { throw CorpusReplay.changed(file.file.path, "now \(problem)") }
                if outcome.codes.count > codes.count { codes = outcome.codes }
                items = outcome.items
                offset = 0
                itemsOfFile += items.count
                if !items.isEmpty { return true }
            }
        }

        /// Throws when `file`'s size or modification time is no longer the stamp's.
        private func check(_ file: File) throws {
            if try Stamp(path: file.file.path) != file.stamp { throw CorpusReplay.changed(file.file.path, "size or modification time") }
        }
    }
}
