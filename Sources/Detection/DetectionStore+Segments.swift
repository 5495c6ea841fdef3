import BenchSupport
import Foundation

extension DetectionStore {
    /// Where one canonical segment of a results log starts: its first result's byte offset and line number.
    struct Segment: Equatable, Sendable {
        let offset: Int
        let line: Int
    }

    /// The most segments a log is read as: each is read on a thread of its own holding a few batches
    /// (`ResultBatches`). A resume adds a segment only when the corpus gained items before those
    /// logged, so a log of LangBench's is far below it; one past it was written in another order (by
    /// an older LangBench) and is refused.
    static let maxSegments = 32

    /// Where each canonical segment of the log's first `length` bytes starts (results of `configs`,
    /// numbered in that order; others do not count): a segment ends where a result comes before the one
    /// above it. One pass over the log, memory a block and a line.
    static func segments(of log: URL, length: Int? = nil, configs: [String]) throws -> [Segment] {
        let configIndex = configs.firstPositions
        let lines = try LogLines(log, length: length)
        var reader = DetectionResultLog.Lines(url: log)
        var segments: [Segment] = [], last: (config: Int, id: String)?
        while let line = try lines.next() {
            guard let result = try reader.result(lines.lineNumber, line), let config = configIndex[result.config] else { continue }
            if last.map({ config < $0.config || config == $0.config && result.itemID < $0.id }) ?? true {
                segments.append(Segment(offset: lines.lineOffset, line: lines.lineNumber))
            }
            last = (config, result.itemID)
        }
        guard segments.count <= maxSegments else {
            throw ConfigurationError.invalid(path: log.path, reason: "its results are out of canonical order (config order, then item id) in \(segments.count - 1) places, "
                                             + "more than the \(maxSegments - 1) resumes LangBench reads back; it was written by an older LangBench: run detect again")
        }
        return segments
    }
}
