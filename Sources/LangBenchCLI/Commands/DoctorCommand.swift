import Support
import Detection
import Foundation
import Generation
import Corpus
import Suite
import Backend

/// `langbench doctor`: is everything the default run needs there? Exit 0 when ready, 69 otherwise.
struct DoctorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "doctor",
        abstract: "Check the llama.cpp server, the model, the profile and the translation packs.",
        discussion: """
        Checks that llama-server runs (and its version), that the model is present with the profile's SHA-256, \
        that a server starts and answers /health, and reads the profile's supported languages and the default \
        translation packs. Binary and model are found through LANGBENCH_LLAMA_SERVER and LANGBENCH_MODEL, else \
        the set-up cache. Never prints message content. Exit 0 when ready, 69 otherwise with the commands to run.
        """,
        groups: [OptionGroup("Options", [
            .value("server-url", "url", help: "Check this running server instead of starting one (a URL ending in /v1: its OpenAI-compatible API)."),
            .value("api-key-env", "name", help: "Environment variable holding the OpenAI-compatible server's API key.", computedDefault: "the profile's backend.api_key_env"),
            .value("profile", "file", help: "Model profile.", computedDefault: "LangBench's \(ModelProfile.defaultResource)"),
        ])]
    )

    let serverURL: URL?
    let profilePath: String
    let apiKeyEnv: String?

    init(_ arguments: ParsedArguments) throws {
        profilePath = arguments.value("profile") ?? ModelProfile.defaultPath
        serverURL = try arguments.value("server-url").map { try ServerURLOption.parse($0, command: arguments.command) }
        apiKeyEnv = try arguments.value("api-key-env").map { try APIKeyEnvOption.parse($0, command: arguments.command) }
    }

    func run(_ context: CommandContext) async throws -> ExitStatus {
        // A profile that does not load is reported by its own check below (with its reason); until then the
        // backend checks run on the defaults, hence the `try?` reads of it.
        let profile = Result { try ModelProfile.load(profilePath) }
        let runDirectory = FileManager.default.temporaryDirectory
            .appendingPathComponent("langbench-doctor-\(OutputOptions.stamp())-\(getpid())")
        let doctor = BackendDoctor(paths: BackendPaths.resolve(environment: context.environment),
                                   expectedSHA256: (try? profile.get().model.sha256) ?? BackendPaths.modelSHA256,
                                   runDirectory: runDirectory, serverURL: serverURL,
                                   threads: (try? profile.get().server.threads) ?? 2,
                                   openAI: serverURL.flatMap { url in
                                       (try? profile.get()).flatMap { ServerSource(apiKeyEnv: apiKeyEnv).openAIEndpoint(profile: $0, url: url, environment: context.environment) }
                                   })
        var checks = await doctor.run()
        checks.append(Self.resourcesCheck(root: ToolResources.root))
        checks.append(Self.profileCheck(profile, path: profilePath))
        checks.append(Self.packsCheck(LanguagePacks.deviceDefault))
        checks.append(await Self.apertiumCheck(environment: context.environment, runDirectory: runDirectory))

        let width = checks.map(\.name.count).max() ?? 0
        for check in checks {
            let mark = switch check.status {
            case .passed: "ok  "
            case .failed: check.required ? "FAIL" : "warn"
            case .skipped: "skip"
            }
            let name = check.name.padding(toLength: width, withPad: " ", startingAt: 0)
            context.stdout.write("\(mark)  \(name)  \(check.detail)\n")
        }
        // The trial server's log matters only when something failed (its path is then in the detail).
        if checks.allRequiredPassed { try? FileManager.default.removeItem(at: runDirectory) }
        guard checks.allRequiredPassed else {
            context.stdout.write("not ready; run:\n" + checks.fixes.map { "  \($0)\n" }.joined())
            return .unavailable
        }
        context.stdout.write("ready\n")
        return .success
    }

    /// The files every default run reads from the tool's resources.
    static let resourceFiles = [ToolResources.marker, ModelProfile.defaultResource, FallbackBank.defaultResource, CrisisCheck.defaultResource,
                                ConfusionCosts.defaultResource]

    static func resourcesCheck(root: URL?) -> DoctorCheck {
        let fix = "reinstall with scripts/install, or set \(ToolResources.environmentKey) to a directory holding LangBench's Models/, Profiles/, Corpora/ and Config/"
        guard let root else {
            return DoctorCheck(name: "resources", status: .failed, detail: "not found beside the executable (../share/langbench) nor above it", fix: fix)
        }
        let missing = resourceFiles.filter { !FileManager.default.fileExists(atPath: root.appendingPathComponent($0).path) }
        guard missing.isEmpty else {
            return DoctorCheck(name: "resources", status: .failed, detail: "\(root.path): missing \(missing.joined(separator: ", "))", fix: fix)
        }
        return DoctorCheck(name: "resources", status: .passed, detail: "\(root.path) (commit \(ToolResources.commit(root: root).map { String($0.prefix(12)) } ?? "unknown"))")
    }

    static func profileCheck(_ profile: Result<ModelProfile, any Error>, path: String) -> DoctorCheck {
        switch profile {
        case .success(let profile):
            let languages = profile.supportedLanguages.map(\.identifier).joined(separator: ", ")
            return DoctorCheck(name: "profile", status: .passed,
                               detail: "\(profile.name): \(profile.supportedLanguages.count) supported languages (\(languages))")
        case .failure(let error):
            return DoctorCheck(name: "profile", status: .failed, detail: "\(path): \(error)",
                               fix: "fix \(path) or pass --profile <file>")
        }
    }

    /// Starts APy as `--translator apertium` would and reads its packs: the pairs it lists are installed, the pairs a
    /// Debian package would bring downloadable. Not required: only the Apertium pivot needs it.
    static func apertiumCheck(environment: [String: String], runDirectory: URL) async -> DoctorCheck {
        do {
            let server = try await ApertiumServer.launch(environment: environment, runDirectory: runDirectory)
            defer { server.stop() }
            let packs = try await ApertiumTranslator.reading(server, name: "apertium").packs()
            let pairs = { (state: LanguagePacks.State) in packs.pairs.filter { $0.value == state }.keys.sorted().joined(separator: ", ") }
            return DoctorCheck(name: "apertium", status: .passed,
                               detail: "APy \(server.version ?? "(version unknown)"): installed \(pairs(.installed)); downloadable \(pairs(.supported)); any other pair unsupported",
                               required: false)
        } catch {
            return DoctorCheck(name: "apertium", status: .failed, detail: "\(error)", fix: "scripts/setup (or apt-get install apertium-apy apertium-eng-spa), for --translator apertium",
                               required: false)
        }
    }

    static func packsCheck(_ packs: LanguagePacks) -> DoctorCheck {
        let missing = packs.pairs.filter { $0.value != .installed }.sorted { $0.key < $1.key }
        let detail = missing.isEmpty
            ? "default device: every pack \(packs.defaultState.rawValue)"
            : "default device: \(packs.defaultState.rawValue) except " + missing.map { "\($0.key) (\($0.value.rawValue))" }.joined(separator: ", ")
        return DoctorCheck(name: "packs", status: .passed, detail: detail, required: false)
    }
}
