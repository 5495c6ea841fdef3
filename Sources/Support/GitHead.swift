import Foundation

/// The commit checked out in a git working tree, asked of `git` itself.
package enum GitHead {
    /// `git -C directory rev-parse HEAD`, or nil when git is missing or `directory` is not in a checkout (a run outside
    /// one records no commit; that is an answer, not an error).
    package static func commit(in directory: String) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git", "-C", directory, "rev-parse", "HEAD"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
