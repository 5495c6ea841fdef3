import Support
import Foundation
import Corpus
import ByteIO

/// What `detect --resume` keeps from an earlier run's results log, after checking that the log was
/// made with the same configs and settings and that every logged item still has the same content:
/// which (config, item position) pairs are done, and a reader of their results in canonical order
/// (`KeptResults`) for the recorder. Memory holds a bit per item and config, not the results.
struct DetectionResume: Sendable {
    /// Per config number, a bit per item position: set when the log holds its result (empty: none).
    private var done: [[UInt64]]
    /// Where the kept results are read from.
    fileprivate var source: Source
    /// The results kept.
    private(set) var count = 0

    fileprivate enum Source: Sendable {
        /// Nothing kept.
        case nothing
        /// The first `length` bytes of the log at the URL, read as its index says (`DetectionStore.Cursor`):
        /// every result of a config of the run, a duplicate skipped, is kept (anything else was refused).
        case log(URL, length: Int, configs: [String])
    }
    /// The last result kept in canonical order (config number, item position).
    private var last: (config: Int, position: Int)?

    /// Nothing to keep (a fresh run).
    init(configs: Int) {
        done = Array(repeating: [], count: configs)
        source = .nothing
    }

    /// Whether there is no result to keep.
    var isEmpty: Bool { count == 0 }

    /// Whether a fresh result of config number `config` for the item at `position`, appended after the kept
    /// ones, starts a canonical segment of its own: it comes before the last kept.
    func startsSegment(config: Int, position: Int) -> Bool {
        guard let last else { return false }
        return config < last.config || config == last.config && position < last.position
    }

    /// Whether the result of config number `config` for the item at `position` is kept.
    func isDone(config: Int, position: Int) -> Bool {
        let bits = done[config]
        return !bits.isEmpty && bits[position >> 6] & (1 << UInt64(position & 63)) != 0
    }

    /// A reader of the kept results, asked for each in canonical order.
    func kept() throws -> KeptResults {
        try KeptResults(source)
    }

    /// The kept results, one at a time in canonical order (config, then item position).
    final class KeptResults {
        fileprivate let source: Source
        private let cursor: DetectionStore.Cursor?

        fileprivate init(_ source: Source) throws {
            self.source = source
            if case .log(let url, let length, let configs) = source {
                cursor = try DetectionStore.Cursor(log: url, length: length, configs: configs)
            } else {
                cursor = nil
            }
        }

        /// The kept result of config number `config` for the item at `position` (asked in canonical order,
        /// for kept ones only).
        func result(config: Int, position: Int) throws -> DetectionResult {
            switch source {
            case .nothing:
                preconditionFailure("no result is kept")
            case .log(let url, _, _):
                guard let cursor, let result = try cursor.next() else {
                    throw DamagedLog(path: url.path, reason: "ended before the result of config \(config + 1) for item \(position + 1), which it held when the run started")
                }
                guard cursor.configNumber == config else {
                    throw DamagedLog(path: url.path, reason: "changed while the run resumed it (a result of config '\(result.config)' where one of config \(config + 1) was kept)")
                }
                return result
            }
        }
    }
}

extension DetectionResume {
    /// Checks the log at `url` against a run with `header` over `items` and keeps its results; returns
    /// them with the log to append fresh results to and its length. Throws `ResumeError.mismatch` naming
    /// every kind of difference, with examples, before anything is written. A torn final line is truncated
    /// away; an empty log starts afresh; a log of an older format is refused (`DetectionResultLog.olderFormat`).
    ///
    /// The log is checked in one streamed pass (its segments merged, when its index names several) against
    /// the corpus read again per config. Memory does not grow with the log.
    static func resuming(_ url: URL, header: DetectionLogHeader, items: SortedCorpus, directory: URL) throws -> (DetectionResume, DetectionResultLog, length: Int) {
        guard let earlier = try DetectionResultLog.header(of: url) else {
            try DetectionStore.SegmentIndex.remove(of: url)
            return (DetectionResume(configs: header.configs.count), try DetectionResultLog(creating: url, header: header), 0)
        }
        let length = try JSONLines.truncateTornLine(of: url)
        let check = try streamed(url, length: length, configs: header.configs.map(\.name), items: items)
        let resume = check.resume
        let differences = header.differences(from: earlier) + check.changed.difference("item(s) changed text, language or tags under the same id")
            + check.missing.difference("logged item(s) are not in the corpus")
        if !differences.isEmpty { throw ResumeError.mismatch(directory: directory.path, differences: differences) }
        return (resume, try DetectionResultLog(appendingTo: url), length)
    }

    /// Before the first fresh result is appended to the log at `url` (its first `length` bytes kept): when that
    /// result starts a segment of its own (`startsSegment`), the log's index gains the segment, so that every
    /// reader reads the log as its segments merged.
    static func indexSegment(of url: URL, length: Int) throws {
        var segments = try DetectionStore.SegmentIndex.segments(of: url, length: length) ?? [try firstSegment(of: url)]
        guard segments.last!.offset < length else { return }  // an earlier resume's segment, still empty
        guard segments.count < DetectionStore.maxSegments else {
            throw DamagedLog(path: url.path, reason: "is \(segments.count) canonical segments already, the most LangBench reads back; "
                             + "run detect again without --resume")
        }
        segments.append(try DetectionStore.segment(at: length, of: url))
        try DetectionStore.SegmentIndex.write(segments, of: url)
    }

    /// The log's first segment: its results from line 2, after the header.
    private static func firstSegment(of url: URL) throws -> DetectionStore.Segment {
        let lines = try LogLines(url)
        guard let header = try lines.next() else { return DetectionStore.Segment(offset: 0, line: 2) }
        return DetectionStore.Segment(offset: lines.lineOffset + header.count + 1, line: 2)
    }

    /// The check of a log, streamed in canonical order.
    private static func streamed(_ url: URL, length: Int, configs: [String], items: SortedCorpus) throws -> Check {
        var resume = DetectionResume(configs: configs.count)
        resume.source = .log(url, length: length, configs: configs)
        var changed = Examples(), missing = Examples()
        let results = try DetectionStore.Cursor(log: url, length: length, configs: configs)
        var config = -1
        var corpus: SortedCorpus.Cursor?, buffer: ArraySlice<CorpusItem> = [], position = 0
        while let result = try results.next() {  // results of configs of the run, duplicates skipped, in canonical order or it throws
            let number = results.configNumber
            if number != config {
                config = number
                corpus = try items.cursor()
                buffer = []
                position = 0
            }
            while true {  // on to the first item whose id is not before the result's
                if buffer.isEmpty {
                    buffer = try corpus!.next(4096)
                    if buffer.isEmpty { break }
                }
                if buffer.first!.id >= result.itemID { break }
                buffer.removeFirst()
                position += 1
            }
            guard let item = buffer.first, item.id == result.itemID else {
                missing.add(result.itemID, config: number)
                continue
            }
            if result.itemHash != ItemFingerprint.of(item) {
                changed.add(result.itemID, config: number)
                continue
            }
            resume.keep(config: number, position: position, of: items.count)
        }
        return Check(resume: resume, changed: changed, missing: missing)
    }

    /// What a check of the log found: the results it keeps, and the logged items it cannot.
    private struct Check {
        var resume: DetectionResume
        var changed: Examples
        var missing: Examples
    }

    /// Marks the result of config number `config` for the item at `position` (of `items`) kept.
    private mutating func keep(config: Int, position: Int, of items: Int) {
        if done[config].isEmpty { done[config] = Array(repeating: 0, count: (items + 63) / 64) }
        done[config][position >> 6] |= 1 << UInt64(position & 63)
        count += 1
        last = (config, position)
    }

    /// Ids of one kind of difference: how many (per config: an item's results under every config share
    /// its fate), and the first few.
    private struct Examples {
        private var counts: [Int: Int] = [:]
        private var ids: [String] = []

        mutating func add(_ id: String, config: Int) {
            counts[config, default: 0] += 1
            if ids.count < 6, !ids.contains(id) { ids.append(id) }
        }

        /// "N <what>: 'a', 'b', …", N the most of any config; none when there are none.
        func difference(_ what: String) -> [String] {
            guard let count = counts.values.max() else { return [] }
            return ["\(count) \(what): " + ids.prefix(5).map { "'\($0)'" }.joined(separator: ", ") + (ids.count > 5 || count > 5 ? ", …" : "")]
        }
    }
}
