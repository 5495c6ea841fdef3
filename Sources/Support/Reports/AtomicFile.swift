import Foundation

/// Writes whole files atomically: a temporary file in the same directory, then a rename, so a reader
/// (or a crash) never sees half a report.
package enum AtomicFile {
    package static func write(_ text: String, to url: URL) throws(ReportError) {
        try write(Data(text.utf8), to: url)
    }

    package static func write(_ data: Data, to url: URL) throws(ReportError) {
        let directory = url.deletingLastPathComponent()
        let temporary = directory.appendingPathComponent(".\(url.lastPathComponent).partial.\(ProcessInfo.processInfo.processIdentifier)")
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try data.write(to: temporary)
            if rename(temporary.path, url.path) != 0 {
                throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            }
        } catch {
            try? FileManager.default.removeItem(at: temporary)  // best effort; the original error is what matters
            throw ReportError.writeFailure(url, error)
        }
    }
}
