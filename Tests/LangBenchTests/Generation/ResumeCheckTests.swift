@testable import BenchSupport
@testable import Detection
import Foundation
@testable import Generation
@testable import Items
@testable import LangBench
import TestSupport
import Testing

/// `generate --resume` refuses (65) records made with other settings or for
/// other text under the same id, naming each difference. The backend is the echoing fake: what is under
/// test is the resume check, and a real server would only make the test slower.
struct ResumeCheckTests {
    static func job(_ items: [CorpusItem], directory: URL, seed: Int = 1, resume: Bool) throws -> GenerationJob {
        let pipeline = try PipelineFixture.pipeline(backend: EchoBackend(), detector: FixedDetector(lang: "en"))
        var sampling = try PipelineFixture.profile().sampling
        sampling.seed = seed
        let settings = GenerationReport.Settings(profile: "test", route: .direct, sampling: sampling, translationSampling: sampling,
                                                 supportedLanguages: ["en"], detection: "fixed", packs: LanguagePacks(), concurrency: 1,
                                                 repeats: 1, warmup: 0, refuseUnsupported: false, server: ["url": "http://127.0.0.1:\(seed)"])
        return GenerationJob(corpus: Corpus(items: items, sources: []), runner: GenerationRunner(pipeline: pipeline, choice: .direct, warmup: 0),
                             settings: settings, directory: directory, command: ["test"], resume: resume)
    }

    static let items = [PipelineFixture.item("a", "en", "How are you today?"), PipelineFixture.item("b", "en", "What a lovely morning.")]

    @Test func resumingWithTheSameSettingsAndItemsKeepsEverything() async throws {
        let directory = try Fixture.temporaryDirectory()
        let first = try await Self.job(Self.items, directory: directory, resume: false).run()
        let again = try await Self.job(Self.items, directory: directory, resume: true).run()
        #expect(again.records == first.records)
    }

    @Test func changedSettingsAreRefusedAndNamed() async throws {
        let directory = try Fixture.temporaryDirectory()
        _ = try await Self.job(Self.items, directory: directory, resume: false).run()
        await #expect {
            _ = try await Self.job(Self.items, directory: directory, seed: 2, resume: true).run()
        } throws: { error in
            "\(error)".contains("--resume would mix results made differently: sampling.seed: 1 → 2; translation_sampling.seed: 1 → 2;")
        }
    }

    @Test func changedTextUnderTheSameIDIsRefused() async throws {
        let directory = try Fixture.temporaryDirectory()
        _ = try await Self.job(Self.items, directory: directory, resume: false).run()
        var edited = Self.items
        edited[1].text = "What a rainy evening."
        await #expect {
            _ = try await Self.job(edited, directory: directory, resume: true).run()
        } throws: { error in
            error is ConfigurationError && "\(error)".contains("1 item(s) changed text, language or history under the same id ('b')")
        }
        // A new item is not a change: it is simply run.
        let grown = try await Self.job(Self.items + [PipelineFixture.item("c", "en", "Good night!")], directory: directory, resume: true).run()
        #expect(grown.records.map(\.itemID) == ["a", "b", "c"])
    }

    @Test func recordsWithoutAManifestAreRefused() async throws {
        let directory = try Fixture.temporaryDirectory()
        _ = try await Self.job(Self.items, directory: directory, resume: false).run()
        try FileManager.default.removeItem(at: directory.appendingPathComponent(ResumeManifest.file))
        await #expect(throws: ConfigurationError.self) { _ = try await Self.job(Self.items, directory: directory, resume: true).run() }
    }
}
