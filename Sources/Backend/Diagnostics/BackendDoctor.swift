import Support
import Foundation

/// Checks that the llama.cpp backend is ready: binary and version, model and checksum, a server
/// that starts and answers `/health`. Returns checks; printing and exit codes belong to the CLI.
package struct BackendDoctor: Sendable {
    package var paths: BackendPaths
    package var expectedSHA256: String
    /// Where the trial server writes its log.
    package var runDirectory: URL
    /// When set, check this running server instead of launching one (binary and model become optional).
    package var serverURL: URL?
    package var threads: Int
    /// When set, `serverURL` is an OpenAI-compatible server: check its models and one request instead of `/health`.
    package var openAI: OpenAIEndpoint?

    package init(paths: BackendPaths, expectedSHA256: String = BackendPaths.modelSHA256, runDirectory: URL,
                serverURL: URL? = nil, threads: Int = 2, openAI: OpenAIEndpoint? = nil) {
        self.openAI = openAI
        self.paths = paths
        self.expectedSHA256 = expectedSHA256
        self.runDirectory = runDirectory
        self.serverURL = serverURL
        self.threads = threads
    }

    /// Runs every check; never throws — a failure is a failed check with its fix.
    package func run() async -> [DoctorCheck] {
        let local = serverURL == nil
        let binary = await checkBinary(required: local)
        let model = await checkModel(required: local)
        if let openAI { return [binary, model] + (await checkOpenAI(openAI)) }
        let server: DoctorCheck
        if let serverURL {
            server = await checkAttached(serverURL)
        } else if binary.status == .passed && model.status == .passed {
            server = await checkLaunch()
        } else {
            server = DoctorCheck(name: "server", status: .skipped, detail: "needs the binary and the model",
                                 fix: nil)
        }
        return [binary, model, server]
    }

    func checkBinary(required: Bool) async -> DoctorCheck {
        let name = "llama-server"
        guard FileManager.default.isExecutableFile(atPath: paths.server) else {
            return DoctorCheck(name: name, status: .failed,
                               detail: "not found at \(paths.server) (\(paths.serverSource))",
                               fix: paths.serverFromEnvironment
                                   ? "point LANGBENCH_LLAMA_SERVER at llama-server, or unset it and run scripts/setup-llama"
                                   : "scripts/setup-llama",
                               required: required)
        }
        do {
            let version = try await LlamaBuild.version(ofServerAt: paths.server)
            return DoctorCheck(name: name, status: .passed, detail: "\(version) at \(paths.server)", required: required)
        } catch {
            return DoctorCheck(name: name, status: .failed, detail: "\(paths.server) does not run: \(error)",
                               fix: "scripts/setup-llama", required: required)
        }
    }

    func checkModel(required: Bool) async -> DoctorCheck {
        let name = "model"
        let fix = "rm -f \(paths.model) && scripts/setup-model"
        guard FileManager.default.fileExists(atPath: paths.model) else {
            return DoctorCheck(name: name, status: .failed, detail: "not found at \(paths.model) (\(paths.modelSource))",
                               fix: paths.modelFromEnvironment
                                   ? "point LANGBENCH_MODEL at the GGUF, or unset it and run scripts/setup-model"
                                   : "scripts/setup-model",
                               required: required)
        }
        do {
            let actual = try await FileChecksum.sha256(of: URL(fileURLWithPath: paths.model))
            guard actual == expectedSHA256 else {
                return DoctorCheck(name: name, status: .failed,
                                   detail: "\(paths.model) has SHA-256 \(actual), expected \(expectedSHA256)",
                                   fix: fix, required: required)
            }
            return DoctorCheck(name: name, status: .passed, detail: "\(paths.model), SHA-256 verified", required: required)
        } catch {
            return DoctorCheck(name: name, status: .failed, detail: "cannot hash \(paths.model): \(error)",
                               fix: fix, required: required)
        }
    }

    func checkLaunch() async -> DoctorCheck {
        let configuration = ServerConfiguration(binary: paths.server, model: paths.model, contextSize: 2048,
                                                threads: threads, parallelSlots: 1, startupTimeout: 60)
        let start = ContinuousClock.now
        do {
            let server = try await LlamaServer.launch(configuration, runDirectory: runDirectory)
            defer { server.stop() }
            let ready = (ContinuousClock.now - start).milliseconds
            let props = try await server.client().props()
            return DoctorCheck(name: "server", status: .passed,
                               detail: String(format: "started and answered /health in %.1f s; %@, context %d per slot",
                                              ready / 1000, props.buildInfo, props.contextPerSlot))
        } catch {
            return DoctorCheck(name: "server", status: .failed, detail: "\(error)", fix: "scripts/setup-llama && scripts/setup-model")
        }
    }

    func checkAttached(_ url: URL) async -> DoctorCheck {
        do {
            let server = try await LlamaServer.attach(to: url)
            let props = try await server.client().props()
            return DoctorCheck(name: "server", status: .passed,
                               detail: "\(url.absoluteString) answers /health; \(props.buildInfo), model \(props.modelPath)")
        } catch {
            return DoctorCheck(name: "server", status: .failed, detail: "\(error)",
                               fix: "start llama-server at \(url.absoluteString) or drop --server-url")
        }
    }
}
