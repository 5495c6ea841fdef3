@testable import Support
@testable import Detection
import Foundation
@testable import Generation
import GenerationTestSupport
@testable import Corpus
@testable import Suite
import Backend
import Provenance
import ByteIO
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A pool of two real llama-servers on loopback (one thread each, started here and attached by URL as a
/// user's pool would be): the items are dealt across both, a server killed mid-run has its remaining items
/// finished by the other, and a run whose every server died resumes on servers started again.
@Suite(.serialized)
struct ServerPoolTests {
    /// Six English messages, direct: a tiny corpus (the machine is shared).
    static let items = (1...6).map { PipelineFixture.item("p\($0)", "en", ["I had a long day.", "My cat sleeps a lot.", "It rained today.",
                                                                          "I called my sister.", "The bus was late.", "I baked bread."][$0 - 1]) }

    static func launch(alias: String? = nil, arguments: [String] = []) async throws -> LlamaServer {
        let paths = BackendPaths.resolve(environment: ProcessInfo.processInfo.environment)
        try #require(FileManager.default.isExecutableFile(atPath: paths.server),
                     "llama-server not found at \(paths.server); run scripts/setup-llama or set LANGBENCH_LLAMA_SERVER")
        try #require(FileManager.default.fileExists(atPath: paths.model), "model not found at \(paths.model); run scripts/setup-model or set LANGBENCH_MODEL")
        ServerReaper.installSignalHandlers()
        let configuration = ServerConfiguration(binary: paths.server, model: paths.model, contextSize: 1024, threads: 1,
                                                parallelSlots: 1, swaFull: true, startupTimeout: 60,
                                                extraArguments: (alias.map { ["--alias", $0] } ?? []) + arguments)
        return try await LlamaServer.launch(configuration, runDirectory: try Fixture.temporaryDirectory("langbench-pool"))
    }

    /// Kills a server outright (SIGKILL), as a machine that dies would.
    static func killProcess(_ server: LlamaServer) {
        if let pid = server.processID { _ = kill(pid, SIGKILL) }
    }

    /// A generation over `urls`, direct, short replies, no warm-up, into `directory`.
    static func setup(_ urls: [URL], directory: URL) throws -> GenerationSetup {
        var plan = GenerationPlan()
        plan.route = .direct
        plan.warmup = 0
        plan.seed = 5
        plan.bankPath = PipelineFixture.repository.appendingPathComponent(FallbackBank.defaultResource).path
        plan.crisisPath = PipelineFixture.repository.appendingPathComponent(CrisisCheck.defaultResource).path
        var profile = try PipelineFixture.profile()
        profile.sampling.nPredict = 8
        profile.translationSampling.nPredict = 8
        let factory = DetectorFactory(recognizerModel: PipelineFixture.repository.appendingPathComponent("Models/recognizer.lbrm").path)
        return GenerationSetup(plan: plan, factory: factory, server: ServerSource(urls: urls), profile: profile, directory: directory,
                               environment: ProcessInfo.processInfo.environment)
    }

    static func corpus() -> Corpus { Corpus(items: items, sources: []) }

    /// Calls `action` once, when the `count`-th item × repeat unit has finished.
    final class After: ProgressObserving, @unchecked Sendable {
        let count: Int
        let action: @Sendable () -> Void
        private let lock = NSLock()
        private var done = 0
        init(_ count: Int, _ action: @escaping @Sendable () -> Void) {
            self.count = count
            self.action = action
        }
        func begin(_ phase: String, total: Int?) {}
        func end() {}
        func advance(by count: Int) {
            lock.lock()
            done += count
            let fire = done == self.count
            lock.unlock()
            if fire { action() }
        }
    }

    @Test(.needs(.server)) func aServerKilledMidRunHasItsItemsFinishedByTheOther() async throws {
        let first = try await Self.launch(), second = try await Self.launch()
        defer { first.stop(); second.stop() }
        let directory = try Fixture.temporaryDirectory("langbench-pool-run")
        let setup = try Self.setup([first.baseURL, second.baseURL], directory: directory)
        let report = try await setup.run(corpus: Self.corpus(), command: ["test"], resume: false, progress: After(2) { Self.killProcess(second) })

        // Every item recorded exactly once, in the log as in the report.
        let logged = try JSONLinesLog<GenerationRecord>.read(directory.appendingPathComponent(GenerationOutput.recordsLog), repair: false)
        #expect(logged.map(\.itemID).sorted() == Self.items.map(\.id))
        #expect(report.records.map(\.itemID) == Self.items.map(\.id))
        #expect(report.records.allSatisfy { $0.outcome == .model }, "\(report.records.map { $0.fallbackReason?.rawValue ?? "model" })")
        // Dealt by order: p1, p3, p5 to server-1; what server-2 had not finished moved to server-1.
        for (index, record) in report.records.enumerated() {
            if index % 2 == 0 { #expect(record.server == "server-1" && record.reassignedFrom == nil) }
            else { #expect(record.server == "server-2" || (record.server == "server-1" && record.reassignedFrom == "server-2")) }
        }
        let moved = report.records.filter { $0.reassignedFrom == "server-2" }.count
        #expect(moved >= 1 && report.records.filter { $0.server == "server-2" }.count <= 2)
        // Each server's calibration: the killed one has its start samples only.
        let servers = try #require(report.provenance.servers)
        #expect(servers.map(\.label) == ["server-1", "server-2"] && servers.map(\.failed) == [false, true])
        #expect(servers[1].unitsMoved == moved && servers[1].calibration?.samples.allSatisfy { $0.phase == "start" } == true)
        #expect(Set(servers[0].calibration?.samples.map(\.phase) ?? []) == ["start", "end"])
        #expect(servers.allSatisfy { !$0.url.contains("@") } && report.provenance.calibration != nil)
        let markdown = try String(contentsOf: directory.appendingPathComponent(GenerationOutput.markdownFile), encoding: .utf8)
        #expect(markdown.contains("### Latency per server") && markdown.contains("server-2 failed during the run (run: stopped answering /health): \(moved) item"))
        #expect(servers.map(\.failure) == [nil, "run: stopped answering /health"])
        let csv = try String(contentsOf: directory.appendingPathComponent(GenerationOutput.itemsFile), encoding: .utf8)
        #expect(csv.split(separator: "\n").first?.hasSuffix(",server,reassigned_from") == true)
    }

    @Test(.needs(.server)) func aRunWhoseEveryServerDiedStopsAndResumes() async throws {
        let directory = try Fixture.temporaryDirectory("langbench-pool-resume")
        let first = try await Self.launch(), second = try await Self.launch()
        do {
            defer { first.stop(); second.stop() }
            let setup = try Self.setup([first.baseURL, second.baseURL], directory: directory)
            await #expect(throws: GenerationStopped.self) {
                _ = try await setup.run(corpus: Self.corpus(), command: ["test"], resume: false, progress: After(1) { Self.killProcess(first); Self.killProcess(second) })
            }
        }
        let kept = try JSONLinesLog<GenerationRecord>.read(directory.appendingPathComponent(GenerationOutput.recordsLog), repair: true)
        #expect(!kept.isEmpty && kept.count < Self.items.count)
        #expect(Set(kept.map(\.itemID)).count == kept.count)
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent(GenerationOutput.jsonFile).path))

        let third = try await Self.launch(), fourth = try await Self.launch()
        defer { third.stop(); fourth.stop() }
        let report = try await Self.setup([third.baseURL, fourth.baseURL], directory: directory)
            .run(corpus: Self.corpus(), command: ["test"], resume: true)
        #expect(report.records.map(\.itemID) == Self.items.map(\.id))
        let logged = try JSONLinesLog<GenerationRecord>.read(directory.appendingPathComponent(GenerationOutput.recordsLog), repair: false)
        #expect(logged.count == Self.items.count && Set(logged.map(\.key)).count == Self.items.count)
        #expect(report.records.allSatisfy { $0.outcome == .model && $0.server != nil })
    }

    /// A loopback port nothing listens on (port 1 is privileged and unused): a real refused connection.
    static let deadURL = URL(string: "http://127.0.0.1:1")!

    @Test(.needs(.server)) func aServerThatDoesNotAnswerAtTheStartHasItsItemsMovedToTheLiveOne() async throws {
        let live = try await Self.launch()
        defer { live.stop() }
        let directory = try Fixture.temporaryDirectory("langbench-pool-dead-start")
        // The dead one first: the live one becomes the reference the settings describe.
        let report = try await Self.setup([Self.deadURL, live.baseURL], directory: directory).run(corpus: Self.corpus(), command: ["test"], resume: false)
        #expect(report.records.map(\.itemID) == Self.items.map(\.id))
        #expect(report.records.allSatisfy { $0.outcome == .model && $0.server == "server-2" })
        // server-1's items (p1, p3, p5) ran on server-2, recorded as moved.
        #expect(report.records.filter { $0.reassignedFrom == "server-1" }.map(\.itemID) == ["p1", "p3", "p5"])
        let servers = try #require(report.provenance.servers)
        #expect(servers.map(\.failed) == [true, false] && servers[0].unitsMoved == 3 && servers[0].calibration == nil)
        #expect(servers[1].calibration != nil && report.settings.server["props_error"] == nil)
        // The attached server runs on this machine: its binary and settings are read back through /proc.
        let binary = BackendPaths.resolve(environment: ProcessInfo.processInfo.environment).server
        #expect(report.settings.server["server_binary_sha256"] == (try await ModelChecksum.sha256(ofFileAt: binary)))
        #expect(report.settings.server["server_args"]?.contains("--threads ") == true)
        // Why it failed is recorded, without its URL.
        #expect(servers.map(\.failure) == ["attach: connection refused", nil])
        let markdown = try String(contentsOf: directory.appendingPathComponent(GenerationOutput.markdownFile), encoding: .utf8)
        #expect(markdown.contains("server-1 failed during the run (attach: connection refused): 3 item × repeat unit(s)"))
    }

    /// On `--resume`, a server failed at the start moves only the units the earlier run had not recorded.
    /// The first run: server-2 dead, so every item runs on server-1, which is killed after two; the resumed
    /// run has server-2 dead again and its items p2, p4, p6 less the recorded p2 move: two units, not three.
    @Test(.needs(.server)) func onResumeOnlyUnrecordedUnitsCountAsMoved() async throws {
        let directory = try Fixture.temporaryDirectory("langbench-pool-resume-moved")
        do {
            let first = try await Self.launch()
            defer { first.stop() }
            await #expect(throws: GenerationStopped.self) {
                _ = try await Self.setup([first.baseURL, Self.deadURL], directory: directory)
                    .run(corpus: Self.corpus(), command: ["test"], resume: false, progress: After(2) { Self.killProcess(first) })
            }
        }
        let kept = try JSONLinesLog<GenerationRecord>.read(directory.appendingPathComponent(GenerationOutput.recordsLog), repair: true)
        try #require(kept.map(\.itemID) == ["p1", "p2"], "one unit at a time in corpus order: \(kept.map(\.itemID))")

        let second = try await Self.launch()
        defer { second.stop() }
        let report = try await Self.setup([second.baseURL, Self.deadURL], directory: directory).run(corpus: Self.corpus(), command: ["test"], resume: true)
        #expect(report.records.map(\.itemID) == Self.items.map(\.id))
        let servers = try #require(report.provenance.servers)
        #expect(servers.map(\.failed) == [false, true] && servers[1].unitsMoved == 2)
        #expect(report.records.filter { $0.reassignedFrom == "server-2" }.map(\.itemID) == ["p2", "p4", "p6"], "p2 moved in the first run")
    }

    /// A server that answers `/health` but refuses `/props` (a real llama-server with `--api-key`, which keeps
    /// `/health` public): its model cannot be checked, so the run stops before any item, naming it (exit 69).
    @Test(.needs(.server)) func aPoolServerWhoseModelCannotBeReadStopsTheRun() async throws {
        let first = try await Self.launch(), second = try await Self.launch(arguments: ["--api-key", "pool-test-key"])
        defer { first.stop(); second.stop() }
        let directory = try Fixture.temporaryDirectory("langbench-pool-props")
        let setup = try Self.setup([first.baseURL, second.baseURL], directory: directory)
        do {
            _ = try await setup.run(corpus: Self.corpus(), command: ["test"], resume: false)
            Issue.record("a pool with a server of unknown model ran")
        } catch let unknown as PoolModelUnknown {
            #expect(unknown.label == "server-2" && unknown.url == second.baseURL.absoluteString && unknown.kind == "HTTP 401")
            #expect(unknown.description.hasPrefix("server-2 (\(second.baseURL.absoluteString)) did not say which model it serves: GET /props failed (HTTP 401)"))
            #expect(!unknown.description.contains("pool-test-key"))
        }
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent(GenerationOutput.recordsLog).path))
    }

    @Test func aPoolWhoseEveryServerIsDeadAtTheStartStops() async throws {
        let directory = try Fixture.temporaryDirectory("langbench-pool-all-dead")
        let setup = try Self.setup([Self.deadURL, URL(string: "http://127.0.0.1:2")!], directory: directory)
        do {
            _ = try await setup.run(corpus: Self.corpus(), command: ["test"], resume: false)
            Issue.record("a pool with no live server ran")
        } catch let stopped as GenerationStopped {
            #expect(stopped.kept == 0 && stopped.description.contains("server-1, server-2") && stopped.description.contains("--resume"))
        }
    }

    /// One model file served under two `--alias` names: `/props` reports each server's alias, so the pool
    /// serves two models by name and is refused before any item runs, naming both servers and models.
    @Test(.needs(.server)) func aPoolServingDifferentModelsIsRefused() async throws {
        let first = try await Self.launch(alias: "alpha"), second = try await Self.launch(alias: "beta")
        defer { first.stop(); second.stop() }
        let directory = try Fixture.temporaryDirectory("langbench-pool-models")
        let setup = try Self.setup([first.baseURL, second.baseURL], directory: directory)
        await #expect(throws: PoolModelMismatch(models: [("server-1", "alpha"), ("server-2", "beta")])) {
            _ = try await setup.run(corpus: Self.corpus(), command: ["test"], resume: false)
        }
        #expect(PoolModelMismatch(models: [("server-1", "alpha"), ("server-2", "beta")]).description
            .hasPrefix("the pool's servers serve different models: server-1 serves 'alpha', server-2 serves 'beta'"))
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent(GenerationOutput.recordsLog).path))
    }
}

