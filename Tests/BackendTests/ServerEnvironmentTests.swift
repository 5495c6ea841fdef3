import Foundation
@testable import Backend
import Testing

/// What a server computes with, read from its command line, its log and /proc.
struct ServerEnvironmentTests {
    @Test func settingsLeaveOutWhereTheServerListensAndWhichFileItLoads() {
        let arguments = ["--model", "/a/b.gguf", "--host", "127.0.0.1", "--port", "8080", "--ctx-size", "2048", "--threads", "2",
                         "-m", "/c.gguf", "--ubatch-size", "8", "--api-key", "sk-secret", "--flash-attn", "on"]
        #expect(ServerEnvironment.settings(arguments) == "--ctx-size 2048 --threads 2 --ubatch-size 8 --flash-attn on")
    }

    @Test func systemInfoKeepsTheFeaturesThatAreOn() throws {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("server-env-\(UUID().uuidString).log")
        defer { try? FileManager.default.removeItem(at: log) }
        try """
        build: 11434 (b11434) with cc for x86_64-linux-gnu
        system_info: n_threads = 2 (n_threads_batch = 2) / 2 | CPU : SSE3 = 1 | SSSE3 = 1 | AVX = 1 | AVX2 = 1 | F16C = 1 | FMA = 1 | AVX512 = 0 | LLAMAFILE = 1 | OPENMP = 1 | REPACK = 1 |
        main: server is listening
        """.write(to: log, atomically: true, encoding: .utf8)
        #expect(ServerEnvironment.systemInfo(logFile: log) == "SSE3 SSSE3 AVX AVX2 F16C FMA LLAMAFILE OPENMP REPACK")
        try "no such line\n".write(to: log, atomically: true, encoding: .utf8)
        #expect(ServerEnvironment.systemInfo(logFile: log) == nil)
    }

    /// A real process listening on loopback (Python's HTTP server) is found by its port, its command line read back.
    @Test func theCommandLineOfALocalListenerIsFoundByItsPort() async throws {
        #if os(Linux)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        let port = 20_000 + Int.random(in: 0..<20_000)
        process.arguments = ["python3", "-m", "http.server", String(port), "--bind", "127.0.0.1"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // SIGKILL: a test process that watches SIGTERM (the server reaper) passes it on ignored to its children.
        defer { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() }
        var found: [String]?
        for _ in 0..<100 where found == nil {
            try await Task.sleep(for: .milliseconds(100))
            found = ServerEnvironment.listener(port: port)?.arguments
        }
        #expect(found?.suffix(5) == ["-m", "http.server", String(port), "--bind", "127.0.0.1"])
        let executable = try #require(ServerEnvironment.listener(port: port)?.executable)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: executable).contains("python"))
        #expect(ServerEnvironment.listener(port: 1) == nil)  // nothing listens on port 1
        #endif
    }
}

/// Only settings that change what is measured are recorded from a server's command line: an allow-list, so a token,
/// a key file or anything LangBench does not know is never written.
struct ServerSettingsAllowListTests {
    @Test func tokensKeysAndUnknownFlagsAreNeverRecorded() {
        let arguments = ["--model", "/m.gguf", "--hf-token", "hf_SECRETd1", "--threads", "2", "--api-key-file", "/keys/SECRETd2",
                         "--ubatch-size=8", "--hf-repo=org/SECRETd3", "-np", "1", "--no-webui", "--swa-full", "--ssl-key-file", "/SECRETd4",
                         "--temp", "0.7", "--some-future-flag", "SECRETd5", "--cache-type-k", "q8_0", "-n", "-1"]
        let settings = ServerEnvironment.settings(arguments)
        #expect(settings == "--threads 2 --ubatch-size=8 -np 1 --swa-full --temp 0.7 --cache-type-k q8_0 -n -1")
        #expect(!settings.contains("SECRET"))
    }

    @Test func onlyALlamaServerIsALlamaServer() {
        #expect(ServerEnvironment.isLlamaServer(program: "/root/.cache/langbench/llama.cpp/b1/bin/llama-server"))
        #expect(!ServerEnvironment.isLlamaServer(program: "python3.13"))
        #expect(!ServerEnvironment.isLlamaServer(program: "/usr/bin/socat"))
    }
}
