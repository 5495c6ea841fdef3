import BenchSupport
import Foundation
import Items

extension DetectionStore {
    /// One pass over a store's results in canonical order (`DetectionStore`): streamed from the log, parsed
    /// ahead on a thread of its own (`ResultBatches`), or, for a log out of that order, from the log read whole and sorted.
    public final class Cursor {
        private let store: DetectionStore
        private let inMemory: Bool
        /// The log streamed: batches parsed ahead on another thread, and where the reader is in the current one.
        private var batches: ResultBatches?
        private var batch: [DetectionResult] = []
        private var sorted: [DetectionResult] = []
        private var index = 0
        private let configIndex: [String: Int]
        /// The last result returned: its config number and id, for the order check.
        private var last: (config: Int, id: String)?
        private var lastConfigName = ""
        private var lastConfigNumber = -1
        private var counts: [Int]
        private var ended = false

        init(_ store: DetectionStore, inMemory: Bool) throws {
            self.store = store
            self.inMemory = inMemory
            configIndex = Dictionary(store.report.configs.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { a, _ in a })
            counts = Array(repeating: 0, count: store.report.configs.count)
            if inMemory {
                sorted = try DetectionStore.sorted(store.log, report: store.report)
            } else {
                batches = ResultBatches(store.log)
            }
        }

        deinit { batches?.cancel() }  // the reading thread stops: nothing more is read

        /// The configs of the run (`configNumber` counts them from 0).
        public var configCount: Int { counts.count }

        /// The config number (in the report's order) of the result `next` returned last.
        public private(set) var configNumber = -1

        /// The next result, or nil after the last (when the log is checked complete against the report).
        public func next() throws -> DetectionResult? {
            if inMemory {
                guard index < sorted.count else { return nil }
                defer { index += 1 }
                configNumber = configIndex[sorted[index].config]!
                return sorted[index]
            }
            guard let batches, !ended else { return nil }
            while true {
                if index == batch.count {
                    guard let next = try batches.next() else { break }
                    batch = next
                    index = 0
                }
                let result = batch[index]
                index += 1
                let config: Int
                if result.config == lastConfigName {
                    config = lastConfigNumber
                } else {
                    guard let number = configIndex[result.config] else { continue }  // a config the report does not name
                    config = number
                    lastConfigName = result.config
                    lastConfigNumber = number
                }
                if let last {
                    if config < last.config || config == last.config && result.itemID < last.id {
                        throw NotInCanonicalOrder(log: store.log)
                    }
                    if config == last.config && result.itemID == last.id { continue }  // a duplicate keeps the first
                }
                last = (config, result.itemID)
                counts[config] += 1
                configNumber = config
                return result
            }
            ended = true
            try DetectionStore.checkComplete(Dictionary(zip(store.configs, counts), uniquingKeysWith: { a, _ in a }), of: store.report, log: store.log)
            return nil
        }

        /// A new pass over the same store, read the same way (streamed, or sorted in memory).
        public func reopened() throws -> Cursor {
            try Cursor(store, inMemory: inMemory)
        }

        /// Starts the pass again from the first result.
        public func rewind() throws {
            index = 0
            last = nil
            configNumber = -1
            ended = false
            counts = counts.map { _ in 0 }
            batch = []
            if !inMemory {
                batches?.cancel()
                batches = ResultBatches(store.log)
            }
        }
    }
}

/// The complete lines of a JSON-lines file read a block at a time, each lent until the next call: the
/// same lines `JSONLines.forEachCompleteLine` gives (empty ones skipped, a torn final line dropped), in
/// memory of a block plus the longest line. With `length`, only the file's first `length` bytes are read
/// (a log being appended to while its earlier results are read back).
final class LogLines {
    static let blockSize = 1 << 20

    private let url: URL
    private let handle: FileHandle
    private var buffer: UnsafeMutableRawBufferPointer
    private var start = 0, end = 0
    private var atEnd = false
    /// Bytes still to read (nil: to the end of the file).
    private var remaining: Int?
    /// The number of the line `next` returned last (counting empty lines).
    private(set) var lineNumber = 0

    init(_ url: URL, length: Int? = nil) throws {
        self.url = url
        remaining = length
        handle = try ReportError.reading(url) { try FileHandle(forReadingFrom: url) }
        buffer = .allocate(byteCount: Self.blockSize, alignment: 1)
    }

    deinit {
        buffer.deallocate()
        try? handle.close()  // read-only: nothing to lose on close
    }

    /// The next complete, non-empty line without its newline, or nil at the end.
    func next() throws -> UnsafeRawBufferPointer? {
        while true {
            if start < end, let found = memchr(buffer.baseAddress! + start, 0x0A, end - start) {
                let newline = buffer.baseAddress!.distance(to: found)
                let line = UnsafeRawBufferPointer(rebasing: buffer[start..<newline])
                start = newline + 1
                lineNumber += 1
                if line.isEmpty { continue }
                return line
            }
            if atEnd { return nil }  // what is left is a torn final line
            try fill()
        }
    }

    /// Moves the unread bytes to the front (growing the buffer when one line fills it) and reads on.
    private func fill() throws {
        let unread = end - start
        if unread == buffer.count {
            let larger = UnsafeMutableRawBufferPointer.allocate(byteCount: buffer.count * 2, alignment: 1)
            larger.copyMemory(from: UnsafeRawBufferPointer(buffer))
            buffer.deallocate()
            buffer = larger
        } else if start > 0 {
            if unread > 0 { memmove(buffer.baseAddress!, buffer.baseAddress! + start, unread) }
        }
        start = 0
        end = unread
        let room = min(buffer.count - end, remaining ?? .max)
        let read = room == 0 ? 0 : try ReportError.reading(url) { try handle.readBlock(into: UnsafeMutableRawBufferPointer(rebasing: buffer[end..<(end + room)])) }
        remaining = remaining.map { $0 - read }
        if read == 0 { atEnd = true } else { end += read }
    }
}
