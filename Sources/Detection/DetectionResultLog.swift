import Support
import Foundation
import ByteIO

/// `detection-results.jsonl`: a header line (`DetectionLogHeader`), then one row per result
/// (`DetectionResultLine`: a JSON array in the header's column order, with its item's fingerprint),
/// appended as results are produced. Lines are buffered and written a batch at a time: a crash loses at
/// most the batch in flight, which `--resume` redoes. Its lines are parsed by `Lines` only, driven by
/// `ResultBatches` (`DetectionStore.Cursor`: resume, `compare`, `merge`). A log of an older format (2: a
/// header without `columns` and one JSON object per result; 1: no header) is refused, naming its format and
/// how to record it again.
final class DetectionResultLog {
    static let fileName = DetectionReport.resultsLog

    private let writer: BufferedFileWriter
    let url: URL
    /// How a header line starts (sorted keys), and how a format-2 header did.
    static let headerStart = Array("{\"columns\"".utf8), formatTwoHeaderStart = Array("{\"configs\"".utf8)

    /// Starts a fresh log with `header` (written as the current format), replacing any file at `url`;
    /// an `atomic` one replaces it only when finished.
    init(creating url: URL, header: DetectionLogHeader, atomic: Bool = false) throws(ReportError) {
        writer = try BufferedFileWriter(url: url, atomic: atomic)
        self.url = url
        do {
            writer.append(try JSONOutput.line(header))
        } catch {
            throw .cannotWrite(path: url.path, reason: "cannot encode the header (\(error))")
        }
        try writer.flush()
    }

    /// Appends to an existing log (checked by `DetectionResume.resuming`, a torn final line truncated away first).
    init(appendingTo url: URL) throws(ReportError) {
        writer = try BufferedFileWriter(url: url, append: true)
        self.url = url
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

    /// The header of the log at `url` (nil for an empty one), reading its first line only.
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
        mutating func result(_ lineNumber: Int, _ line: ByteView) throws -> DetectionResult? {
            if lineNumber == 1, !line.starts(with: DetectionResultLog.headerStart), line.first == UInt8(ascii: "{") {
                throw DetectionResultLog.olderFormat(url, format: line.starts(with: DetectionResultLog.formatTwoHeaderStart) ? 2 : 1)
            }
            do {
                if lineNumber == 1 {
                    header = try DetectionResultLog.header(Data(line), decoder: decoder)
                    return nil
                }
                guard line.first == UInt8(ascii: "[") else { throw DetectionRowReader.Invalid(description: "not a row of format 3") }
                return try rows.result(line)
            } catch let error as DamagedLog {
                throw error
            } catch {
                throw DamagedLog(path: url.path, line: lineNumber, reason: "not a valid record (\(JSONErrorText.describe(error)))")
            }
        }
    }

    /// A log of a format before this one: its results cannot be checked or read as rows, so the run is recorded again.
    static func olderFormat(_ url: URL, format: Int) -> DamagedLog {
        DamagedLog(path: url.path, reason: "a results log of format \(format), written by an older LangBench; this LangBench reads format "
            + "\(DetectionLogHeader.formatVersion) only: record the run again (`langbench detect` or `langbench run` with the same corpora and configs)")
    }

    /// The header line, checked to be of the format this LangBench reads.
    private static func header(_ line: Data, decoder: JSONDecoder) throws -> DetectionLogHeader {
        let header = try decoder.decode(DetectionLogHeader.self, from: line)
        if header.detectionLog > DetectionLogHeader.formatVersion {
            throw DetectionRowReader.Invalid(description: "format \(header.detectionLog) is newer than this LangBench reads (\(DetectionLogHeader.formatVersion)); use a newer LangBench")
        }
        if header.columns != DetectionResultLine.columns {
            throw DetectionRowReader.Invalid(description: "columns \(header.columns ?? []) are not those of format 3 (\(DetectionResultLine.columns))")
        }
        return header
    }
}
