import Foundation
import Testing

/// The real `langbench` executable, for tests that run it as a child process.
public enum LangBenchExecutable {
    /// `LANGBENCH_EXECUTABLE`, else `langbench` in a directory above the test bundle (`swift build` builds
    /// every product beside it).
    public static func path() throws -> String {
        if let path = ProcessInfo.processInfo.environment["LANGBENCH_EXECUTABLE"] { return path }
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        for _ in 0..<5 {
            directory = directory.deletingLastPathComponent()
            let candidate = directory.appendingPathComponent("langbench")
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory), !isDirectory.boolValue,
               FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate.path }
        }
        try #require(Bool(false), "langbench not found near \(CommandLine.arguments[0]); run swift build")
        return ""
    }
}
