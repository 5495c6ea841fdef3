@testable import Support
@testable import Detection
import Foundation
import ByteIO

extension DetectionResultLog {
    /// The header (nil for an empty log) and every complete result, in memory (a torn final line is
    /// dropped). A missing file has no results; one that cannot be read is an error (a resume must not
    /// silently redo everything). For tests: LangBench reads a log through `DetectionStore.Cursor`.
    static func read(_ url: URL) throws -> (header: DetectionLogHeader?, results: [DetectionResult]) {
        guard FileManager.default.fileExists(atPath: url.path) else { return (nil, []) }
        var results: [DetectionResult] = []
        var reader = Lines(url: url)
        let lines = try LogLines(url)
        while let line = try lines.next() {
            if let result = try reader.result(lines.lineNumber, line) { results.append(result) }
        }
        return (reader.header, results)
    }
}
