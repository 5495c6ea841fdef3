import Foundation
import GenerationTestSupport
import TestSupport
import Testing

/// Another package builds against the library and uses the recognizer and a detection job (`Tests/ClientPackage`,
/// which depends on LangBench by path): every type the API hands out is importable from outside.
struct ClientPackageTests {
    static let package = PipelineFixture.repository.appendingPathComponent("Tests/ClientPackage")

    @Test(.needs(.child)) func aPackageOutsideBuildsAgainstTheLibraryAndRunsIt() throws {
        let arguments = ["swift", "build", "--package-path", Self.package.path, "--product", "langbench-client"]
        var build = try run("/usr/bin/env", arguments)
        // SwiftPM keeps the client's build plan across runs and does not notice a library file that moved between
        // targets ("missing inputs"): then the client's own build directory is cleaned and the build made again.
        if build.status != 0 && build.output.contains("because of missing inputs") {
            _ = try run("/usr/bin/env", ["swift", "package", "--package-path", Self.package.path, "clean"])
            build = try run("/usr/bin/env", arguments)
        }
        try #require(build.status == 0, "\(build.output)")
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("langbench-client-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: out) }
        let client = try run(Self.package.appendingPathComponent(".build/debug/langbench-client").path,
                             [PipelineFixture.repository.appendingPathComponent("Models/recognizer.lbrm").path, out.path])
        #expect(client.status == 0, "\(client.output)")
        #expect(client.output.contains("recognized: uk\n"), "\(client.output)")
        #expect(client.output.contains("accuracy: "), "\(client.output)")
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("detection.json").path))
    }

    private func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let result = try Shell.run(executable, arguments, in: Self.package, environment: ProcessInfo.processInfo.environment)
        return (result.status, result.stdout + result.stderr)
    }
}
