import Foundation
import Testing
import Support

@Suite struct ToolResourcesTests {
    /// A directory tree under $TMPDIR, removed at the end.
    final class Tree {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("langbench-resources-\(UUID().uuidString)")
        func file(_ relative: String) throws -> URL {
            let url = root.appendingPathComponent(relative)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("x".utf8).write(to: url)
            return url
        }
        deinit { try? FileManager.default.removeItem(at: root) }
    }

    @Test func anInstalledExecutableFindsShareBesideItsBin() throws {
        let tree = Tree()
        let executable = try tree.file("prefix/bin/langbench")
        _ = try tree.file("prefix/share/langbench/" + ToolResources.marker)
        let found = ToolResources.locate(environment: [:], executable: executable)
        #expect(found?.path == tree.root.appendingPathComponent("prefix/share/langbench").standardizedFileURL.path)
    }

    @Test func aCheckoutBuildFindsTheCheckoutAboveBuild() throws {
        let tree = Tree()
        let executable = try tree.file("checkout/.build/x86_64-unknown-linux-gnu/release/langbench")
        _ = try tree.file("checkout/" + ToolResources.marker)
        let found = ToolResources.locate(environment: [:], executable: executable)
        #expect(found?.path == tree.root.appendingPathComponent("checkout").standardizedFileURL.path)
    }

    @Test func langbenchHomeWinsAndTheWorkingDirectoryIsNeverSearched() throws {
        let tree = Tree()
        let executable = try tree.file("elsewhere/bin/langbench")
        let home = tree.root.appendingPathComponent("home")
        #expect(ToolResources.locate(environment: ["LANGBENCH_HOME": home.path], executable: executable)?.path == home.standardizedFileURL.path)
        // Nothing beside or above the executable: not found, whatever the working directory holds (the test runs in
        // the checkout, which has Models/recognizer.lbrm).
        #expect(FileManager.default.fileExists(atPath: FileManager.default.currentDirectoryPath + "/" + ToolResources.marker))
        #expect(ToolResources.locate(environment: [:], executable: executable) == nil)
        #expect(ToolResources.locate(environment: ["LANGBENCH_HOME": "~/lb", "HOME": "/home/dev"], executable: executable)?.path == "/home/dev/lb")
    }

    @Test func theCommitComesFromTheInstallsFile() throws {
        let tree = Tree()
        let root = tree.root.appendingPathComponent("share")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        #expect(ToolResources.commit(root: root) == nil)
        try Data("0123abcd\n".utf8).write(to: root.appendingPathComponent(ToolResources.commitFile))
        #expect(ToolResources.commit(root: root) == "0123abcd")
    }

    /// Every path form a suite file can hold, for a suite file named every way it can be.
    @Test(arguments: [
        // (path in the file, the file's path, read as)
        ("corpora/chat.tsv", "bench.json", "corpora/chat.tsv"),
        ("corpora/chat.tsv", "suite/bench.json", "suite/corpora/chat.tsv"),
        ("corpora/chat.tsv", "/srv/app/suite/bench.json", "/srv/app/suite/corpora/chat.tsv"),
        ("../shared/profile.json", "/srv/app/suite/bench.json", "/srv/app/suite/../shared/profile.json"),
        ("/data/chat.tsv", "/srv/app/suite/bench.json", "/data/chat.tsv"),
        ("~/corpora/chat.tsv", "/srv/app/suite/bench.json", "/home/dev/corpora/chat.tsv"),
        ("~", "suite/bench.json", "/home/dev"),
        ("~other/chat.tsv", "/srv/bench.json", "/srv/~other/chat.tsv"),
        ("chat.tsv", "~/suite/bench.json", "/home/dev/suite/chat.tsv"),
    ])
    func aPathInASuiteFileIsReadFromThatFile(path: String, file: String, expected: String) {
        #expect(SuitePath.resolve(path, inFile: file, environment: ["HOME": "/home/dev"]) == expected)
    }
}
