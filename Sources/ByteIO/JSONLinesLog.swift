import Support
import Foundation
import Synchronization

/// An append-only JSON-lines file written line by line with unbuffered `write(2)` calls, so results
/// survive a crash or `kill -9` of the harness (no fsync: surviving a power cut is not the goal, and
/// an fsync per result made large runs I/O-bound).
/// Reading tolerates a torn last line (the one being written when the process died).
package final class JSONLinesLog<Entry: Codable & Sendable>: Sendable {
    /// The open file: one append at a time.
    private let handle: Mutex<FileHandle>
    package let url: URL

    package init(url: URL) throws(ReportError) {
        self.url = url
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            if !FileManager.default.fileExists(atPath: url.path), !FileManager.default.createFile(atPath: url.path, contents: nil) {
                throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            }
            let file = try FileHandle(forWritingTo: url)
            try file.seekToEnd()
            handle = Mutex(file)
        } catch {
            throw ReportError.writeFailure(url, error)
        }
    }

    // try?: a deinit has no caller to report to, and a failed close loses nothing (every append already wrote through).
    deinit { handle.withLock { try? $0.close() } }

    package func append(_ entry: Entry) throws {
        let line = Data(try JSONOutput.line(entry).utf8)
        try handle.withLock { handle in
            do {
                try POSIXIO.write(line, to: handle.fileDescriptor)
            } catch {
                throw ReportError.writeFailure(url, error)
            }
        }
    }

    /// Every complete entry in the file; a torn final line is dropped (and truncated away when
    /// `repair` is true, so appends continue on a clean line).
    /// A missing file has no entries; one that exists but cannot be read is an error (a resume must not
    /// silently redo everything).
    package static func read(_ url: URL, repair: Bool = false) throws -> [Entry] {
        guard FileManager.default.fileExists(atPath: url.path) else { return [] }
        if repair { _ = try JSONLines.truncateTornLine(of: url) }
        var entries: [Entry] = []
        let decoder = JSONDecoder()
        let lines = try LogLines(url)
        while let line = try lines.next() {
            do {
                entries.append(try decoder.decode(Entry.self, from: Data(line)))
            } catch {
                throw DamagedLog(path: url.path, line: lines.lineNumber, reason: "not a valid record (\(JSONErrorText.describe(error)))")
            }
        }
        return entries
    }
}

/// Repairing a JSON-lines log (reading one: `LogLines`).
package enum JSONLines {
    /// Truncates a torn final line (one without its newline: being written when the process died) away,
    /// reading only the file's end, and returns the length left. A missing file is left missing (0).
    package static func truncateTornLine(of url: URL) throws -> Int {
        guard FileManager.default.fileExists(atPath: url.path) else { return 0 }
        return try ReportError.writing(url) {
            let handle = try FileHandle(forUpdating: url)
            // `try?`: ftruncate(2) has taken effect by the close, and nothing is buffered to lose.
            defer { try? handle.close() }
            let size = Int(try handle.seekToEnd())
            var end = size
            while end > 0 {
                let start = max(0, end - (1 << 16))
                try handle.seek(toOffset: UInt64(start))
                let block = try handle.readBlock(upTo: end - start)
                if let newline = block.lastIndex(of: 0x0A) {
                    let length = start + (newline - block.startIndex) + 1
                    if length < size { try handle.truncate(atOffset: UInt64(length)) }
                    return length
                }
                end = start
            }
            if size > 0 { try handle.truncate(atOffset: 0) }
            return 0
        }
    }
}
