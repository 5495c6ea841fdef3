import BenchSupport
import Foundation

/// `detection-results.jsonl`: a header line (`DetectionLogHeader`), then one row per result
/// (`DetectionResultLine`: a JSON array in the header's column order, with its item's fingerprint),
/// appended as results are produced. Lines are buffered and written a batch at a time: a crash loses at
/// most the batch in flight, which `--resume` redoes. Its lines are parsed by `Lines` only, driven by
/// `ResultBatches` (`DetectionStore.Cursor`: resume, `compare`, `merge`) and by `rewrite`. Older logs
/// still read: format 2 (a header without `columns`, one JSON object per result) and format 1 (no
/// header, no fingerprints; read, not resumed).
/// A log holds one format: resuming a format-2 log rewrites it as format 3 first (`rewrite`).
final class DetectionResultLog {
    static let fileName = "detection-results.jsonl"

    private let writer: BufferedFileWriter
    /// How a header line starts (sorted keys): format 3, then format 2 (whose results start `{"confidence"`
    /// or `{"config":`).
    static let headerStarts = [Array("{\"columns\"".utf8), Array("{\"configs\"".utf8)]

    /// Starts a fresh log with `header` (written as the current format), replacing any file at `url`;
    /// an `atomic` one replaces it only when finished.
    init(creating url: URL, header: DetectionLogHeader, atomic: Bool = false) throws(ReportError) {
        writer = try BufferedFileWriter(url: url, atomic: atomic)
        do {
            writer.append(try JSONOutput.line(header.current))
        } catch {
            throw .cannotWrite(path: url.path, reason: "cannot encode the header (\(error))")
        }
        try writer.flush()
    }

    /// Appends to an existing log (checked by `DetectionResume.resuming`, a torn final line truncated away first).
    init(appendingTo url: URL) throws(ReportError) {
        writer = try BufferedFileWriter(url: url, append: true)
    }

    /// Buffers result lines (`DetectionResultLine`, whole lines only).
    func append(lines: [UInt8]) throws(ReportError) {
        writer.append(bytes: lines)
        try writer.flushIfFull()
    }

    /// Buffers the line `encode` writes (`DetectionResultLine`, at most `bound` bytes), in place.
    func append(bound: Int, _ encode: (inout ByteCursor) -> Void) throws(ReportError) {
        try writer.write(bound: bound, encode)
    }

    /// Writes what is buffered (at the end of each batch, so an interruption loses little).
    func flush() throws(ReportError) {
        try writer.flush()
    }

    func finish() throws(ReportError) {
        try writer.finish()
    }

    /// Rewrites the log at `url` (of an older format) as the current format with `header`, result by
    /// result in its order, atomically; returns the new log's length in bytes.
    static func rewrite(_ url: URL, header: DetectionLogHeader) throws -> Int {
        let rewritten = try DetectionResultLog(creating: url, header: header, atomic: true)
        let lines = try LogLines(url)
        var reader = Lines(url: url)
        while let line = try lines.next() {
            guard let result = try reader.result(lines.lineNumber, line) else { continue }
            try rewritten.append(bound: result.encodedBound) { DetectionResultLine.encode(result, into: &$0) }
        }
        try rewritten.finish()
        return try ReportError.reading(url) { try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int ?? 0 }
    }

    /// The header of the log at `url` (nil for a log of format 1 or an empty one), reading its first line only.
    static func header(of url: URL) throws -> DetectionLogHeader? {
        let lines = try LogLines(url)
        guard let line = try lines.next() else { return nil }
        var reader = Lines(url: url)
        _ = try reader.result(lines.lineNumber, line)
        return reader.header
    }

    /// Reads a log's lines in order, as `read` does: the header, then results of the header's format.
    struct Lines {
        let url: URL
        private(set) var header: DetectionLogHeader?
        private let decoder = JSONDecoder()
        private var rows = DetectionRowReader()

        /// A reader from the first line, or, with the log's `header`, from a later one.
        init(url: URL, header: DetectionLogHeader? = nil) {
            self.url = url
            self.header = header
        }

        /// The result on line `lineNumber` (its bytes without the newline), or nil for the header.
        mutating func result(_ lineNumber: Int, _ line: UnsafeRawBufferPointer) throws -> DetectionResult? {
            do {
                let format = header?.detectionLog ?? 1
                if lineNumber == 1, DetectionResultLog.headerStarts.contains(where: { line.starts(with: $0) }) {
                    header = try DetectionResultLog.header(Data(line), decoder: decoder)
                    return nil
                } else if line.first == UInt8(ascii: "[") {
                    guard format >= 3 else { throw DetectionRowReader.Invalid(description: "a row of format 3 in a log of format \(format)") }
                    return try rows.result(line)
                } else {
                    guard format < 3 else { throw DetectionRowReader.Invalid(description: "an object in a log of format \(format), whose results are rows") }
                    return try decoder.decode(DetectionResult.self, from: Data(line))
                }
            } catch {
                throw ConfigurationError.invalid(path: url.path, reason: "line \(lineNumber) is not a valid record (\(JSONErrorText.describe(error)))")
            }
        }
    }

    /// The header line, checked to be of a format this LangBench reads.
    private static func header(_ line: Data, decoder: JSONDecoder) throws -> DetectionLogHeader {
        let header = try decoder.decode(DetectionLogHeader.self, from: line)
        if header.detectionLog > DetectionLogHeader.formatVersion {
            throw DetectionRowReader.Invalid(description: "format \(header.detectionLog) is newer than this LangBench reads (\(DetectionLogHeader.formatVersion)); use a newer LangBench")
        }
        if header.detectionLog == 3, header.columns != DetectionResultLine.columns {
            throw DetectionRowReader.Invalid(description: "columns \(header.columns ?? []) are not those of format 3 (\(DetectionResultLine.columns))")
        }
        return header
    }
}
