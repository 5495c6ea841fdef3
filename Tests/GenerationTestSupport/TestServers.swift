@testable import Detection
import Foundation
@testable import Generation
@testable import Corpus
import Backend
import Support
import TestSupport
import Testing

/// Real llama-servers for the generation tests, found like the CLI finds them (LANGBENCH_LLAMA_SERVER,
/// LANGBENCH_MODEL, else the set-up cache). A missing binary or model fails the test — never a skip.
package actor TestServers {
    package static let shared = TestServers()
    private var servers: [Int: LlamaServer] = [:]

    /// A server with `contextSize` tokens, started on first use and shared; stopped at exit.
    package func server(contextSize: Int = 1024) async throws -> LlamaServer {
        if let server = servers[contextSize], server.isRunning { return server }
        let server = try await Self.launch(contextSize: contextSize)
        servers[contextSize] = server
        return server
    }

    /// A server owned by the caller (e.g. to kill it).
    package static func launch(contextSize: Int = 1024) async throws -> LlamaServer {
        let paths = BackendPaths.resolve(environment: ProcessInfo.processInfo.environment)
        try #require(FileManager.default.isExecutableFile(atPath: paths.server),
                     "llama-server not found at \(paths.server); run scripts/setup-llama or set LANGBENCH_LLAMA_SERVER")
        try #require(FileManager.default.fileExists(atPath: paths.model),
                     "model not found at \(paths.model); run scripts/setup-model or set LANGBENCH_MODEL")
        ServerReaper.installSignalHandlers()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("langbench-gen-tests-\(UUID().uuidString.prefix(8))")
        let configuration = ServerConfiguration(binary: paths.server, model: paths.model, contextSize: contextSize, threads: 2,
                                                parallelSlots: 1, swaFull: true, startupTimeout: 60)
        return try await LlamaServer.launch(configuration, runDirectory: directory)
    }
}

/// A detector that always answers one language: detection is not under test where it is used.
package struct FixedDetector: LanguageIdentifying {
    package var lang: String
    package var name: String { "fixed:\(lang)" }
    package init(lang: String) { self.lang = lang }
    package func identify(_ text: String, candidates: [LanguageCode]?, hints: [LanguageCode: Double]) async -> DetectionOutcome {
        .hypotheses([Hypothesis(lang: LanguageCode(normalised: lang), probability: 1)])
    }
}

/// Answers with the gold language of the corpus item whose text it is given, and the expected
/// language for anything else (replies): detection is right by construction.
package struct OracleDetector: LanguageIdentifying {
    package var gold: [String: LanguageCode]
    package var otherwise: LanguageCode?
    package var name: String { "oracle" }
    package init(gold: [String: LanguageCode], otherwise: LanguageCode? = nil) {
        self.gold = gold
        self.otherwise = otherwise
    }
    package func identify(_ text: String, candidates: [LanguageCode]?, hints: [LanguageCode: Double]) async -> DetectionOutcome {
        if let lang = gold[text] ?? otherwise ?? candidates?.last { return .hypotheses([Hypothesis(lang: lang, probability: 1)]) }
        return .undetermined
    }
}

package enum PipelineFixture {
    package static let repository = Fixture.repository

    package static func profile() throws -> ModelProfile {
        try ModelProfile.load(repository.appendingPathComponent(ModelProfile.defaultResource).path)
    }

    package static func bank() throws -> FallbackBank {
        FallbackBank(try CorpusLoader().load([repository.appendingPathComponent(FallbackBank.defaultResource).path]))
    }

    package static func crisis() throws -> CrisisCheck {
        try CrisisCheck.load(repository.appendingPathComponent(CrisisCheck.defaultResource).path)
    }

    package static func pipeline(backend: any TextCompleting, detector: any LanguageIdentifying, profile: ModelProfile? = nil,
                         packs: LanguagePacks = LanguagePacks(), refuseUnsupported: Bool = false,
                         translationSampling: ModelProfile.Sampling? = nil, detection: DetectionConfig? = nil) throws -> ReplyPipeline {
        let profile = try profile ?? Self.profile()
        let translator = LlamaTranslator(backend: backend, prompts: PromptBuilder(templates: profile.prompts),
                                         sampling: translationSampling ?? profile.translationSampling)
        let candidates = try detection?.resolvedCandidates(supported: profile.supportedLanguages)
        return ReplyPipeline(profile: profile, backend: backend, translator: translator, detector: detector, candidates: candidates,
                             hints: detection?.hints ?? [:],
                             packs: packs, crisis: try crisis(), bank: try bank(), refuseUnsupported: refuseUnsupported)
    }

    package static func item(_ id: String, _ lang: String, _ text: String, tags: Set<String> = [], history: [Turn] = []) -> CorpusItem {
        CorpusItem(id: id, lang: LanguageCode(normalised: lang), text: text, tags: tags, history: history)
    }

    /// One item through one route.
    package static func reply(_ pipeline: ReplyPipeline, _ item: CorpusItem, _ route: Route) async throws -> ReplyPipeline.Output {
        let detection = try await pipeline.detect(item)
        return try await pipeline.reply(to: item, detection: detection, route: route, repeatIndex: 0)
    }

    /// The shipped profile with the value at `keyPath` replaced by `json` (a JSON value).
    package static func profile(setting keyPath: [String], to json: String) throws -> Data {
        let value = try JSONSerialization.jsonObject(with: Data(json.utf8), options: .fragmentsAllowed)
        let data = try Data(contentsOf: repository.appendingPathComponent(ModelProfile.defaultResource))
        var root = try #require(JSONSerialization.jsonObject(with: data) as? [String: Any])
        func set(_ object: inout [String: Any], _ path: ArraySlice<String>) {
            guard let key = path.first else { return }
            if path.count == 1 { object[key] = value; return }
            var child = object[key] as? [String: Any] ?? [:]
            set(&child, path.dropFirst())
            object[key] = child
        }
        set(&root, keyPath[...])
        return try JSONSerialization.data(withJSONObject: root)
    }
}
