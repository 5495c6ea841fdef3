import Foundation

/// `detection-results.jsonl`: a header line (`DetectionLogHeader`), then one JSON object per result
/// (`DetectionResult`, with its item's fingerprint), appended as results are produced. Lines are
/// buffered and written a batch at a time: a crash loses at most the batch in flight, which `--resume`
/// redoes. The one reader of per-item detection results: resume, `compare` and `merge` all read it.
/// Logs of LangBench before format 2 have no header and no fingerprints; they can be read, not resumed.
public final class DetectionResultLog {
    public static let fileName = "detection-results.jsonl"

    private let writer: BufferedFileWriter
    /// How a header line starts (sorted keys); a result line starts `{"confidence"` or `{"config":`.
    static let headerStart = Array("{\"configs\"".utf8)

    /// Starts a fresh log with `header`, replacing any file at `url`.
    public init(creating url: URL, header: DetectionLogHeader) throws(ReportError) {
        writer = try BufferedFileWriter(url: url)
        do {
            writer.append(try JSONOutput.line(header))
        } catch {
            throw .cannotWrite(path: url.path, reason: "cannot encode the header (\(error))")
        }
        try writer.flush()
    }

    /// Appends to an existing log (read and repaired by `read(_:repair:)` first).
    public init(appendingTo url: URL) throws(ReportError) {
        writer = try BufferedFileWriter(url: url, append: true)
    }

    /// Buffers result lines (`DetectionResultLine`, whole lines only).
    func append(lines: [UInt8]) throws(ReportError) {
        writer.append(bytes: lines)
        try writer.flushIfFull()
    }

    /// Buffers the line `encode` appends (`DetectionResultLine`), written in place.
    func append(_ encode: (inout [UInt8]) -> Void) throws(ReportError) {
        try writer.write(encode)
    }

    /// Writes what is buffered (at the end of each batch, so an interruption loses little).
    public func flush() throws(ReportError) {
        try writer.flush()
    }

    public func finish() throws(ReportError) {
        try writer.finish()
    }

    /// The header (nil for a log of format 1) and every complete result. A torn final line (the one being
    /// written when the process died) is dropped, and truncated away when `repair` is true so appends
    /// continue on a clean line. A missing file has no results; one that cannot be read is an error (a
    /// resume must not silently redo everything).
    public static func read(_ url: URL, repair: Bool = false) throws -> (header: DetectionLogHeader?, results: [DetectionResult]) {
        var header: DetectionLogHeader?
        var results: [DetectionResult] = []
        let decoder = JSONDecoder()
        try JSONLines.forEachCompleteLine(of: url, repair: repair) { lineNumber, line in
            do {
                if lineNumber == 1, line.starts(with: Self.headerStart) {
                    header = try decoder.decode(DetectionLogHeader.self, from: line)
                } else {
                    results.append(try decoder.decode(DetectionResult.self, from: line))
                }
            } catch {
                throw ConfigurationError.invalid(path: url.path, reason: "line \(lineNumber) is not a valid record (\(JSONErrorText.describe(error)))")
            }
        }
        return (header, results)
    }
}
