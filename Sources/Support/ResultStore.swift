/// Two stores, one shape of reading: a run's per-item store (`DetectionStore`, `GenerationStore`) is written
/// by its own writer and read back by cursors, each a fresh pass over every record in canonical order; a log
/// that cannot be read as written is a `DamagedLog`. A cursor is one such pass.
package protocol ResultCursor: AnyObject {
    associatedtype Record

    /// The next record, or nil after the last (when the log is checked complete against its report).
    func next() throws -> Record?
}

extension ResultCursor {
    /// The rest of the pass, in memory (for the small generation half, and tests: the detection half streams).
    package func remaining() throws -> [Record] {
        var records: [Record] = []
        while let record = try next() { records.append(record) }
        return records
    }
}

/// A per-item log that cannot be read as it should have been written: cut, emptied, edited, out of its
/// order, holding two different records under one key, of an older format, or not the report's. Nothing is
/// read from it (exit 65); the message names the file, the line when there is one, and what to do.
package struct DamagedLog: Error, Sendable, Equatable, CustomStringConvertible {
    package let path: String
    /// The 1-based line the damage was found on, when one line shows it.
    package let line: Int?
    package let reason: String

    package init(path: String, line: Int? = nil, reason: String) {
        self.path = path
        self.line = line
        self.reason = reason
    }

    package var description: String { line.map { "\(path):\($0): \(reason)" } ?? "\(path): \(reason)" }
}
