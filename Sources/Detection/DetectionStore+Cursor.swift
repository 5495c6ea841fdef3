import BenchSupport
import Foundation
import Items

extension DetectionStore {
    /// One pass over a store's results in canonical order (`DetectionStore`): streamed from the log, parsed
    /// ahead on a thread of its own (`ResultBatches`), or, for a log out of that order, from the log read whole and sorted.
    public final class Cursor {
        /// The log and how it is read: from the store (checked complete against its report at the end),
        /// or a bare log's first `length` bytes (a resumed run's, which has no report yet).
        private let source: Source
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

        private enum Source {
            case store(DetectionStore)
            case log(URL, length: Int, configs: [String])

            var log: URL {
                switch self {
                case .store(let store): store.log
                case .log(let url, _, _): url
                }
            }

            /// A fresh reader of the log's results, in file order.
            func batches() -> ResultBatches {
                switch self {
                case .store(let store): ResultBatches(store.log)
                case .log(let url, let length, _): ResultBatches(url, length: length)
                }
            }
        }

        init(_ store: DetectionStore, inMemory: Bool) throws {
            source = .store(store)
            self.inMemory = inMemory
            configIndex = Dictionary(store.report.configs.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { a, _ in a })
            counts = Array(repeating: 0, count: store.report.configs.count)
            if inMemory {
                sorted = try DetectionStore.sorted(store.log, report: store.report)
            } else {
                batches = source.batches()
            }
        }

        /// A stream of the first `length` bytes of the log at `log`, whose results of `configs` (numbered
        /// in this order) must be in canonical order: `next` throws `NotInCanonicalOrder` otherwise.
        init(log: URL, length: Int, configs: [String]) {
            source = .log(log, length: length, configs: configs)
            inMemory = false
            configIndex = Dictionary(configs.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
            counts = Array(repeating: 0, count: configs.count)
            batches = source.batches()
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
                        throw NotInCanonicalOrder(log: source.log)
                    }
                    if config == last.config && result.itemID == last.id { continue }  // a duplicate keeps the first
                }
                last = (config, result.itemID)
                counts[config] += 1
                configNumber = config
                return result
            }
            ended = true
            if case .store(let store) = source {
                try DetectionStore.checkComplete(Dictionary(zip(store.configs, counts), uniquingKeysWith: { a, _ in a }), of: store.report, log: store.log)
            }
            return nil
        }

        /// The next result of config number `config`, skipping those of configs before it; nil past its
        /// last (one pass per config, joined by id: `compare`'s distinct items, the run page's table).
        public func next(ofConfig config: Int) throws -> DetectionResult? {
            while let result = try next() {
                if configNumber == config { return result }
                if configNumber > config { return nil }
            }
            return nil
        }

        /// A new pass over the same store, read the same way (streamed, or sorted in memory).
        public func reopened() throws -> Cursor {
            switch source {
            case .store(let store): try Cursor(store, inMemory: inMemory)
            case .log(let url, let length, let configs): Cursor(log: url, length: length, configs: configs)
            }
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
                batches = source.batches()
            }
        }
    }
}
