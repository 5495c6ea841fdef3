import Support
import Foundation
import ByteIO

extension DetectionStore {
    /// Where one canonical segment of a results log starts: its first result's byte offset and line number.
    struct Segment: Codable, Equatable, Sendable {
        let offset: Int
        let line: Int
    }

    /// The most segments a log is read as: each is read on a thread of its own holding a few batches
    /// (`ResultBatches`). A resume adds a segment only when the corpus gained items before those logged.
    static let maxSegments = 32

    /// `detection-results.index.json`: where each canonical segment of the results log beside it starts,
    /// written by a resume before it appends results that come before ones already logged (a corpus that
    /// gained items). Without it a log is one canonical segment; so every reader opens a log's segments
    /// at once and reads them merged in one pass.
    struct SegmentIndex: Codable {
        static let fileName = "detection-results.index.json"
        static let formatVersion = 1

        var format = SegmentIndex.formatVersion
        var segments: [Segment]

        static func url(of log: URL) -> URL { log.deletingLastPathComponent().appendingPathComponent(fileName) }

        /// The segments of `log` (its first `length` bytes when given), or nil when it has no index (one segment).
        static func segments(of log: URL, length: Int? = nil) throws -> [Segment]? {
            let url = url(of: log)
            guard FileManager.default.fileExists(atPath: url.path) else { return nil }
            let index: SegmentIndex
            do { index = try JSONDecoder().decode(SegmentIndex.self, from: Data(contentsOf: url)) } catch {
                throw DamagedLog(path: url.path, reason: "not an index of the results log's segments (\(JSONErrorText.describe(error))); run detect again")
            }
            let size = try length ?? ReportError.reading(log) { try FileManager.default.attributesOfItem(atPath: log.path)[.size] as? Int ?? 0 }
            let ordered = zip(index.segments, index.segments.dropFirst()).allSatisfy { $0.offset < $1.offset && $0.line < $1.line }
            guard index.format == formatVersion, ordered, !index.segments.isEmpty, index.segments.count <= maxSegments,
                  index.segments.allSatisfy({ $0.offset <= size && $0.line >= 2 }) else {
                throw DamagedLog(path: url.path, reason: "does not describe \(log.lastPathComponent) (format \(index.format), \(index.segments.count) segment(s), "
                                 + "at most \(maxSegments), each inside the log): it was edited or belongs to another run; run detect again")
            }
            return index.segments
        }

        static func write(_ segments: [Segment], of log: URL) throws {
            try AtomicFile.write(try JSONOutput.line(SegmentIndex(segments: segments)), to: url(of: log))
        }

        /// Removes the index beside `log` (a fresh or merged log is one segment).
        static func remove(of log: URL) throws {
            let url = url(of: log)
            guard FileManager.default.fileExists(atPath: url.path) else { return }
            try ReportError.writing(url) { try FileManager.default.removeItem(at: url) }
        }
    }

    /// Where a segment starting at byte `offset` of `log` (a line's start) starts: its line number, counted by
    /// the log reader over the bytes before it. Only a resume that appends out of order asks, once.
    static func segment(at offset: Int, of log: URL) throws -> Segment {
        let lines = try LogLines(log, length: offset)
        while try lines.next() != nil {}
        return Segment(offset: offset, line: lines.lineNumber + 1)
    }
}
