import Foundation
import Generation
import Backend
import Provenance
import TestSupport
import Testing

/// A secret planted in every place a user can put one — a server URL's password holding a raw `@`, space, quote and
/// `<`; a URL's query; an `exec:` detector's and judge's command line, on the flag and in a configs file; an attached
/// llama-server's own command line (`--hf-token`, `--alias`); a port-forward in front of it with a `--token`; doctor's
/// URL — reaches no output of any command: no file of any run, no standard output or error, and not the page with its
/// HTML entities decoded. Every command runs as the real `langbench` executable (a fresh process: no secret registered
/// by an earlier test helps it) against a real llama-server.
struct PlantedSecretTests {
    static let secrets = ["SECRETa1x", "SECRETb1x", "SECRETc1x", "SECRETc2x", "SECRETc3x", "SECRETe1x", "SECRETf1x", "SECRETg1x", "SECRETg2x",
                          "SECRETh1x", "SECRETk1x"]
    static let keyVariable = "LANGBENCH_TEST_PLANTED_KEY"

    /// A plain TCP port-forward: a process that is not llama-server owns the port the run attaches to.
    static let forwarder = """
    import socket, sys, threading
    listen, target = int(sys.argv[-2]), int(sys.argv[-1])
    server = socket.socket()
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    server.bind(("127.0.0.1", listen))
    server.listen(16)
    def pipe(a, b):
        try:
            while True:
                data = a.recv(65536)
                if not data:
                    break
                b.sendall(data)
        except OSError:
            pass
        finally:
            for s in (a, b):
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
    while True:
        client, _ = server.accept()
        upstream = socket.create_connection(("127.0.0.1", target))
        threading.Thread(target=pipe, args=(client, upstream), daemon=True).start()
        threading.Thread(target=pipe, args=(upstream, client), daemon=True).start()
    """

    static func decodeEntities(_ text: String) -> String {
        [("&quot;", "\""), ("&#39;", "'"), ("&#x27;", "'"), ("&lt;", "<"), ("&gt;", ">"), ("&amp;", "&")]
            .reduce(text) { $0.replacingOccurrences(of: $1.0, with: $1.1) }
    }

    @Test(.needs(.server)) func noPlantedSecretReachesAnyOutputOfAnyCommand() async throws {
        let paths = BackendPaths.resolve(environment: ProcessInfo.processInfo.environment)
        let configuration = ServerConfiguration(binary: paths.server, model: paths.model, contextSize: 2048, threads: 2, parallelSlots: 1,
                                                swaFull: true, startupTimeout: 60, extraArguments: ["--hf-token", "hf_SECRETe1x"])
        let server = try await LlamaServer.launch(configuration, runDirectory: try Fixture.temporaryDirectory())
        defer { server.stop() }
        let port = try #require(server.baseURL.port)
        // A keyed server that reflects its key into its model id (`/v1/models`).
        var keyedConfiguration = configuration
        keyedConfiguration.extraArguments = ["--api-key", "sk-SECRETk1x", "--alias", "model-sk-SECRETk1x"]
        let keyedServer = try await LlamaServer.launch(keyedConfiguration, runDirectory: try Fixture.temporaryDirectory())
        defer { keyedServer.stop() }
        let keyedPort = try #require(keyedServer.baseURL.port)

        let directory = try Fixture.temporaryDirectory()
        let script = directory.appendingPathComponent("forward.py")
        try Self.forwarder.write(to: script, atomically: true, encoding: .utf8)
        let proxyPort = 20_000 + Int.random(in: 0..<20_000)
        let proxy = Process()
        proxy.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        proxy.arguments = ["python3", script.path, "--token", "SECRETf1x", String(proxyPort), String(port)]
        proxy.standardOutput = FileHandle.nullDevice
        proxy.standardError = FileHandle.nullDevice
        try proxy.runWithNoSignalBlocked()
        defer { proxy.terminate(); proxy.waitUntilExit() }

        let binary = try LangBenchExecutable.path()
        var environment = ProcessInfo.processInfo.environment
        environment[Self.keyVariable] = "sk-SECRETk1x"
        var said = ""
        func langbench(_ arguments: [String]) throws -> Shell.Result {
            let result = try Shell.run(binary, arguments, in: directory, environment: environment)
            said += result.stdout + "\n" + result.stderr + "\n"
            return result
        }
        let chat = try CommandFixtures.chatCorpus(in: directory), words = try CommandFixtures.wordCorpus(in: directory)
        let detector = "python3 \(CommandFixtures.path("Tests/DetectionTests/Fixtures/detectors/script-detector.py"))"
        let out = { (name: String) in directory.appendingPathComponent(name).path }

        // A password the client reads whole (its last `@` ends it), a judge with a credential in its command line.
        let keyed = "http://admin:p@ss w\"<SECRETa1x@127.0.0.1:\(port)"
        var result = try langbench(["generate", "--corpus", chat, "--profile", CommandFixtures.profile, "--route", "direct", "--warmup", "0",
                                    "--server-url", keyed, "--judge", "exec:\(detector) --endpoint=https://svc:SECRETc1x@judge.example/x", "--out", out("gen")])
        #expect(result.status == 0, "\(result.stderr)")
        let report = try GenerationOutput.read(out("gen"))
        #expect(report.settings.server["server_args"]?.contains("--ctx-size 2048") == true, "\(report.settings.server)")
        #expect(report.provenance.command.contains("http://127.0.0.1:\(port)"), "\(report.provenance.command)")

        // Through the port-forward: named as not llama-server, and neither its command line nor its binary recorded as the server's.
        result = try langbench(["generate", "--corpus", chat, "--profile", CommandFixtures.profile, "--route", "direct", "--warmup", "0",
                                "--server-url", "http://127.0.0.1:\(proxyPort)", "--out", out("proxied")])
        #expect(result.status == 0, "\(result.stderr)")
        let proxied = try GenerationOutput.read(out("proxied")).settings.server
        #expect(proxied["server_process"]?.hasPrefix("not llama-server: python") == true, "\(proxied)")
        #expect(proxied["server_args"] == nil && proxied["server_binary_sha256"] == nil, "\(proxied)")

        // Through the keyed server's OpenAI API: its model id holds the key.
        let openAI = try CommandFixtures.profile(backend: ["api": "openai-completions", "api_key_env": Self.keyVariable], in: directory)
        result = try langbench(["generate", "--corpus", chat, "--profile", openAI, "--route", "direct", "--warmup", "0",
                                "--server-url", "http://127.0.0.1:\(keyedPort)/v1", "--out", out("keyed")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try GenerationOutput.read(out("keyed")).settings.server["model"] == "model-<redacted>")

        // A pool's URL read from a servers file.
        let servers = directory.appendingPathComponent("servers.txt")
        try "http://admin:p@ss-SECRETh1x@127.0.0.1:\(port)\n".write(to: servers, atomically: true, encoding: .utf8)
        result = try langbench(["generate", "--corpus", chat, "--profile", CommandFixtures.profile, "--route", "direct", "--warmup", "0",
                                "--servers-file", servers.path, "--out", out("listed")])
        #expect(result.status == 0, "\(result.stderr)")

        // Detector specs, on the flag and in a configs file.
        result = try langbench(["detect", "--corpus", words, "--detector", "exec:\(detector) --endpoint=https://svc:SECRETc2x@det.example/x?k=SECRETb1x",
                                "--out", out("det")])
        #expect(result.status == 0, "\(result.stderr)")
        let configs = directory.appendingPathComponent("configs.json")
        try #"{"schema_version": 1, "configs": [{"name": "ext", "detector": "exec:\#(detector) --endpoint=https://svc:SECRETc3x@det.example/x"}]}"#
            .write(to: configs, atomically: true, encoding: .utf8)
        result = try langbench(["detect", "--corpus", words, "--configs", configs.path, "--out", out("det-configs")])
        #expect(result.status == 0, "\(result.stderr)")

        // What reads the runs back: compare (every format), merge, doctor on a live and a dead URL.
        for format in ["md", "json", "html", "junit"] {
            _ = try langbench(["compare", out("gen"), out("proxied"), "--latency", "skip", "--allow-mismatch", "--format", format])
            _ = try langbench(["compare", out("det"), out("det"), "--format", format])
        }
        _ = try langbench(["compare", out("gen"), out("proxied"), "--latency", "skip", "--allow-mismatch", "--format", "html", "--out", out("compare.html")])
        _ = try langbench(["merge", out("gen"), "--out", out("merged")])
        _ = try langbench(["doctor", "--profile", CommandFixtures.profile, "--server-url", "http://user:sk-SECRETg1x@127.0.0.1:\(port)/v1?key=SECRETg2x"])
        _ = try langbench(["doctor", "--profile", CommandFixtures.profile, "--server-url", "http://user:p@ss-SECRETg1x@127.0.0.1:1/v1"])
        _ = try langbench(["doctor", "--profile", openAI, "--server-url", "http://127.0.0.1:\(keyedPort)/v1"])

        var written = said
        for name in ["gen", "proxied", "keyed", "listed", "det", "det-configs", "merged", "compare.html"] {
            let path = out(name)
            var isDirectory: ObjCBool = false
            #expect(FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), "\(name) was not written")
            written += isDirectory.boolValue ? try MisbehavingServerTests.everyOutput(path) : try String(contentsOfFile: path, encoding: .utf8)
        }
        let decoded = Self.decodeEntities(written)
        for secret in Self.secrets {
            let at = decoded.range(of: secret)
            let start = at.map { decoded.index($0.lowerBound, offsetBy: -200, limitedBy: decoded.startIndex) ?? decoded.startIndex }
            #expect(at == nil, "\(secret) was written: …\(start.map { String(decoded[$0..<at!.upperBound]) } ?? "")")
        }
    }
}
