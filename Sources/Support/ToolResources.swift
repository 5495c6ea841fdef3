import Foundation

/// Where LangBench finds its own files: the recognizer model, the default profile, the fallback bank, the
/// crisis keywords, the confusion costs and the authored corpora `init` draws from. Never the working
/// directory, so the tool runs the same from anywhere:
/// 1. `LANGBENCH_HOME`, when set;
/// 2. `<prefix>/share/langbench` beside an installed `<prefix>/bin/langbench` (`scripts/install`);
/// 3. the checkout the running executable was built in (the nearest directory above it holding
///    `Models/recognizer.lbrm`, e.g. above `.build/release/langbench`).
package enum ToolResources {
    package static let environmentKey = "LANGBENCH_HOME"
    /// The file whose presence marks a resources directory.
    package static let marker = "Models/recognizer.lbrm"
    /// Written by `scripts/install` into the resources directory: the commit the tool was built from.
    package static let commitFile = "COMMIT"

    /// The resources directory of this process, or nil when none is found (`doctor` says so).
    package static let root: URL? = locate(environment: ProcessInfo.processInfo.environment, executable: executableURL())

    /// `relative` (e.g. `Profiles/gemma3-270m.json`) inside the resources directory; `relative` unchanged when there
    /// is none, so the error that follows names the file.
    package static func path(_ relative: String) -> String {
        root.map { $0.appendingPathComponent(relative).path } ?? relative
    }

    /// The lookup, without the process's state.
    package static func locate(environment: [String: String], executable: URL?) -> URL? {
        if let home = environment[environmentKey], !home.isEmpty {
            return URL(fileURLWithPath: SuitePath.expandingTilde(home, environment: environment)).standardizedFileURL
        }
        guard let directory = executable?.resolvingSymlinksInPath().deletingLastPathComponent() else { return nil }
        let installed = directory.deletingLastPathComponent().appendingPathComponent("share/langbench")
        if holdsMarker(installed) { return installed.standardizedFileURL }
        var current = directory.standardizedFileURL
        for _ in 0..<8 {
            if holdsMarker(current) { return current }
            let parent = current.deletingLastPathComponent()
            if parent.path == current.path { break }
            current = parent
        }
        return nil
    }

    /// The commit the tool was built from: the install's `COMMIT` file, else the checkout's HEAD; nil when neither.
    package static func commit(root: URL? = root) -> String? {
        guard let root else { return nil }
        // try?: a checkout has no COMMIT file; its absence is the expected case, answered by git below.
        if let text = try? String(contentsOf: root.appendingPathComponent(commitFile), encoding: .utf8) {
            let commit = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if !commit.isEmpty { return commit }
        }
        guard FileManager.default.fileExists(atPath: root.appendingPathComponent(".git").path) else { return nil }
        return GitHead.commit(in: root.path)
    }

    private static func holdsMarker(_ directory: URL) -> Bool {
        FileManager.default.fileExists(atPath: directory.appendingPathComponent(marker).path)
    }

    /// The running executable (for tests, the test bundle's runner inside `.build`).
    private static func executableURL() -> URL? {
        #if os(Linux)
        // try?: without /proc (a restricted container) the fallbacks below name the executable as well.
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return URL(fileURLWithPath: path) }
        #endif
        return Bundle.main.executableURL ?? CommandLine.arguments.first.map { URL(fileURLWithPath: $0) }
    }
}

/// A path written inside a suite file (`bench.json`, a variants file): `~` is the home directory, an absolute path
/// stays as it is, and a relative one is read from the directory of the file that holds it — so a suite runs the
/// same from any working directory. Paths given on the command line stay relative to the working directory.
package enum SuitePath {
    package static func resolve(_ path: String, inFile file: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let expanded = expandingTilde(path, environment: environment)
        if expanded.hasPrefix("/") { return expanded }
        // Joined as text: a suite file named relative to the working directory gives paths relative to it too
        // (`bench.json` in the working directory reads `Corpora/x.tsv` as before; `suite/bench.json` reads `suite/Corpora/x.tsv`).
        let file = expandingTilde(file, environment: environment)
        guard let slash = file.lastIndex(of: "/") else { return expanded }
        return String(file[...slash]) + expanded
    }

    /// `~` and `~/…` to the home directory (`HOME`); `~user` is left alone.
    package static func expandingTilde(_ path: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        guard path == "~" || path.hasPrefix("~/") else { return path }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return home + path.dropFirst()
    }
}
