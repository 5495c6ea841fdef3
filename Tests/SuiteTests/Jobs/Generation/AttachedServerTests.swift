@testable import Support
import Foundation
@testable import Suite
@testable import Backend
import TestSupport
import Testing

/// What a run records of a server it attaches to on this machine is that server's: a relative model path in its
/// answers is relative to its own working directory, never to LangBench's.
struct AttachedServerTests {
    @Test(.needs(.server)) func anAttachedServersRelativeModelPathIsHashedFromItsOwnDirectory() async throws {
        let paths = BackendPaths.resolve(environment: ProcessInfo.processInfo.environment)
        let directory = try Fixture.temporaryDirectory()
        try FileManager.default.createSymbolicLink(atPath: directory.appendingPathComponent("model.gguf").path, withDestinationPath: paths.model)
        // Under the same relative name in LangBench's working directory: another file, which must not be hashed.
        let decoy = FileManager.default.currentDirectoryPath + "/model.gguf"
        try #require(!FileManager.default.fileExists(atPath: decoy))
        try "not the model".write(toFile: decoy, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: decoy) }

        let port = try FreePort.find()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: paths.server)
        process.arguments = ["-m", "model.gguf", "--host", "127.0.0.1", "--port", String(port), "-c", "512", "-t", "1"]
        process.currentDirectoryURL = directory
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        let url = try #require(URL(string: "http://127.0.0.1:\(port)"))
        var server: LlamaServer?
        for _ in 0..<120 where server == nil {
            server = try? await LlamaServer.attach(to: url, timeout: 2)
            if server == nil { try await Task.sleep(for: .milliseconds(500)) }
        }
        let facts = await ServerSource().describe(try #require(server, "the server never answered"))
        #expect(facts["model_path"] == "model.gguf")
        #expect(facts["model_sha256"] == (try await ModelChecksum.sha256(ofFileAt: paths.model)), "\(facts)")
    }
}
