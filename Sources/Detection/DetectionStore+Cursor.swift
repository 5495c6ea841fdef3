import Support
import Foundation
import Corpus

extension DetectionStore {
    /// One pass over a store's results in canonical order (`DetectionStore`), streamed from the log and
    /// parsed ahead on a thread of its own (`ResultBatches`). A log of several canonical segments (its
    /// `SegmentIndex`, written by the resume that appended out of order) is read as one stream per
    /// segment, merged.
    package final class Cursor: ResultCursor {
        /// The log and how it is read: from the store (checked complete against its report at the end),
        /// or a bare log's first `length` bytes (a resumed run's, which has no report yet).
        private let source: Source
        /// Where the log's canonical segments start (its index): nil when it is one stream, its order checked.
        private let segments: [Segment]?
        private var streams: [Stream] = []
        /// The one stream of a log read as one (nil for a merge of segments).
        private var single: Stream?
        /// A merge of segments.
        private var merge: ResultMerge?
        private let configIndex: [String: Int]
        /// The last result returned in a merge of segments, to skip its duplicates in later segments.
        private var last: ResultMerge.Head?
        private var counts: [Int]
        /// Per config, results per true language: checked against the report's per-language counts at the end, which
        /// another run's log (another corpus or shard, as many items) does not match.
        private var languages: [[LanguageCode: Int]]
        private var ended = false

        private enum Source {
            case store(DetectionStore)
            case log(URL, length: Int?, configs: [String])

            var log: URL {
                switch self {
                case .store(let store): store.log
                case .log(let url, _, _): url
                }
            }
        }

        init(_ store: DetectionStore) throws {
            source = .store(store)
            segments = try Self.segmented(SegmentIndex.segments(of: store.log))
            configIndex = store.configs.firstPositions
            counts = Array(repeating: 0, count: store.report.configs.count)
            languages = Array(repeating: [:], count: store.report.configs.count)
            try open()
        }

        /// A stream of the first `length` bytes (nil: all) of the log at `log` (results of `configs`, numbered
        /// in this order), read as its index says.
        init(log: URL, length: Int?, configs: [String]) throws {
            source = .log(log, length: length, configs: configs)
            segments = try Self.segmented(SegmentIndex.segments(of: log, length: length))
            configIndex = configs.firstPositions
            counts = Array(repeating: 0, count: configs.count)
            languages = Array(repeating: [:], count: configs.count)
            try open()
        }

        /// Segments to merge; nil for one (read from the log's start, header included).
        private static func segmented(_ segments: [Segment]?) -> [Segment]? {
            segments.flatMap { $0.count > 1 ? $0 : nil }
        }

        deinit { streams.forEach { $0.cancel() } }  // the reading threads stop: nothing more is read

        /// Starts reading from the first result: one stream, or one per segment.
        private func open() throws {
            streams.forEach { $0.cancel() }
            let url = source.log, length: Int?
            let header: DetectionLogHeader?
            switch source {
            case .store(let store): (length, header) = (nil, store.header)
            case .log(_, let bytes, _): (length, header) = (bytes, nil)
            }
            guard let segments else {
                single = Stream(ResultBatches(url, length: length), url: url, configIndex: configIndex, indexed: false)
                streams = [single!]
                return
            }
            // A segment after the first starts past the header, which its reader is given (read again for a bare log).
            let known = try header ?? DetectionResultLog.header(of: url)
            streams = segments.indices.map { index in  // each segment read up to where the next starts
                let end = index + 1 < segments.count ? segments[index + 1].offset : length
                return Stream(ResultBatches(url, segment: segments[index], header: known, length: end), url: url, configIndex: configIndex, indexed: true)
            }
            let streams = streams
            merge = try ResultMerge(sources: streams.count, order: .configThenID) { source in
                try streams[source].next().map { (streams[source].config, $0) }
            }
        }

        /// The configs of the run (`configNumber` counts them from 0).
        package var configCount: Int { counts.count }

        /// The config number (in the report's order) of the result `next` returned last.
        package private(set) var configNumber = -1

        /// The next result, or nil after the last (when the log is checked complete against the report).
        package func next() throws -> DetectionResult? {
            guard !ended else { return nil }
            if let single {  // the common case, kept free of the merge's bookkeeping
                if let result = try single.next() {
                    configNumber = single.config
                    counts[configNumber] += 1
                    languages[configNumber][result.lang, default: 0] += 1
                    return result
                }
            } else if let head = try merged() {
                configNumber = head.config
                counts[configNumber] += 1
                languages[configNumber][head.result.lang, default: 0] += 1
                return head.result
            }
            ended = true
            if case .store(let store) = source {
                try DetectionStore.checkComplete(Dictionary(zip(store.configs, counts), uniquingKeysWith: { a, _ in a }), of: store.report, log: store.log)
                try DetectionStore.checkLanguages(Dictionary(zip(store.configs, languages), uniquingKeysWith: { a, _ in a }), of: store.report, log: store.log)
            }
            return nil
        }

        /// The next result of the segments merged (ties to the earlier segment), a result already returned
        /// from an earlier segment skipped.
        private func merged() throws -> ResultMerge.Head? {
            while let head = try merge?.next() {
                if let last, last.config == head.config, last.result.itemID == head.result.itemID {
                    // The same result twice is harmless (it counts once); two different ones under one key have no right answer.
                    guard last.result == head.result else { throw DetectionStore.conflictingDuplicate(head.result, in: source.log) }
                    continue
                }
                last = head
                return head
            }
            return nil
        }

        /// The next result of config number `config`, skipping those of configs before it; nil past its
        /// last (one pass per config, joined by id: `compare`'s distinct items, the run page's table).
        package func next(ofConfig config: Int) throws -> DetectionResult? {
            while let result = try next() {
                if configNumber == config { return result }
                if configNumber > config { return nil }
            }
            return nil
        }

        /// A new pass over the same store.
        package func reopened() throws -> Cursor {
            switch source {
            case .store(let store): try Cursor(store)
            case .log(let url, let length, let configs): try Cursor(log: url, length: length, configs: configs)
            }
        }

        /// Starts the pass again from the first result.
        package func rewind() throws {
            last = nil
            configNumber = -1
            ended = false
            counts = counts.map { _ in 0 }
            languages = languages.map { _ in [:] }
            try open()
        }
    }
}

extension DetectionStore.Cursor {
    /// One canonical stream of results: of the configs the cursor reads (others skipped), their order
    /// checked, an identical duplicate counted once and a conflicting one refused.
    fileprivate final class Stream {
        private let batches: ResultBatches
        private let url: URL
        private let configIndex: [String: Int]
        private var batch: [DetectionResult] = []
        private var index = 0
        private var last: (config: Int, result: DetectionResult)?
        private var lastConfigName = ""
        private var lastConfigNumber = -1
        /// Whether the stream is one segment of those the log's index names.
        private let indexed: Bool

        init(_ batches: ResultBatches, url: URL, configIndex: [String: Int], indexed: Bool) {
            self.batches = batches
            self.url = url
            self.configIndex = configIndex
            self.indexed = indexed
        }

        func cancel() { batches.cancel() }

        /// The config number of the result `next` returned last.
        private(set) var config = -1

        /// The next result in canonical order, or nil at the end; a result out of it is a `DamagedLog`.
        func next() throws -> DetectionResult? {
            while true {
                if index == batch.count {
                    guard let next = try batches.next() else { return nil }
                    batch = next
                    index = 0
                }
                let result = batch[index]
                index += 1
                let config: Int
                if result.config == lastConfigName {
                    config = lastConfigNumber
                } else {
                    guard let number = configIndex[result.config] else { continue }  // a config the cursor does not read
                    config = number
                    lastConfigName = result.config
                    lastConfigNumber = number
                }
                if let last {
                    if config < last.config || config == last.config && result.itemID < last.result.itemID {
                        let index = DetectionStore.SegmentIndex.fileName
                        let why = indexed ? "inside a segment \(index) names" : "and no \(index) says where a resume appended"
                        throw DamagedLog(path: url.path, reason: "its results are out of canonical order (config order, then item id): item '\(result.itemID)' "
                                         + "of config '\(result.config)' after '\(last.result.itemID)' of '\(last.result.config)', \(why); "
                                         + "the log was edited or written by an older LangBench: run detect again")
                    }
                    if config == last.config && result.itemID == last.result.itemID {
                        guard result == last.result else { throw DetectionStore.conflictingDuplicate(result, in: url) }
                        continue  // an identical duplicate counts once
                    }
                }
                last = (config, result)
                self.config = config
                return result
            }
        }
    }
}
