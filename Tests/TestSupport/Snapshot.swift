import Foundation
import Testing

/// The test target folder (`Tests/<Target>/`) that holds the calling file, however deep it sits.
func targetRoot(_ filePath: String) -> URL {
    var url = URL(fileURLWithPath: filePath).deletingLastPathComponent()
    while url.deletingLastPathComponent().lastPathComponent != "Tests", url.path != "/" {
        url = url.deletingLastPathComponent()
    }
    return url
}

/// Golden files: compares text with `Snapshots/<name>` in the calling test's target folder. A missing or
/// different golden fails; run with `LANGBENCH_RECORD_SNAPSHOTS=1` to (re)write them, then review the diff.
public enum Snapshot {
    public static func assert(_ actual: String, named name: String, filePath: String = #filePath,
                              sourceLocation: SourceLocation = #_sourceLocation) {
        let url = targetRoot(filePath).appendingPathComponent("Snapshots/\(name)")
        if ProcessInfo.processInfo.environment["LANGBENCH_RECORD_SNAPSHOTS"] == "1" {
            try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            do { try Data(actual.utf8).write(to: url) } catch { Issue.record("cannot record \(url.path): \(error)", sourceLocation: sourceLocation) }
            return
        }
        guard let data = FileManager.default.contents(atPath: url.path) else {
            Issue.record("missing golden file \(url.path); record it with LANGBENCH_RECORD_SNAPSHOTS=1", sourceLocation: sourceLocation)
            return
        }
        let expected = String(decoding: data, as: UTF8.self)
        if expected != actual {
            let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
            let actualLines = actual.split(separator: "\n", omittingEmptySubsequences: false)
            let firstDifference = zip(expectedLines, actualLines).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(expectedLines.count, actualLines.count)
            let want = firstDifference < expectedLines.count ? String(expectedLines[firstDifference]) : "<end>"
            let got = firstDifference < actualLines.count ? String(actualLines[firstDifference]) : "<end>"
            Issue.record("\(name) differs from its golden file at line \(firstDifference + 1):\n  golden: \(want)\n  actual: \(got)\nre-record with LANGBENCH_RECORD_SNAPSHOTS=1 if the change is intended",
                         sourceLocation: sourceLocation)
        }
    }
}

/// Paths of fixture files beside the calling test file.
public enum Fixture {
    public static func path(_ name: String, filePath: String = #filePath) -> String {
        targetRoot(filePath).appendingPathComponent("Fixtures/\(name)").path
    }

    /// A fixture of the test target in `Tests/<target>` (the corpus fixtures are `ItemsTests`').
    public static func path(_ name: String, target: String) -> String {
        repository.appendingPathComponent("Tests/\(target)/Fixtures/\(name)").path
    }

    /// The repository's root (its `Corpora`, `Models`, `Resources`).
    public static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardized

    /// A fresh temporary directory, removed by the caller when done.
    public static func temporaryDirectory(_ prefix: String = "langbench-test") throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
