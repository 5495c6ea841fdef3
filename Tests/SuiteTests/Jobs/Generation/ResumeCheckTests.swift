@testable import Support
@testable import Detection
import Foundation
@testable import Generation
import GenerationTestSupport
@testable import Corpus
@testable import Suite
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

    /// Variants are objects in a list: compared leaf by leaf (`variants[1].name`), never as a dictionary's description,
    /// whose key order differs between processes, so the same variants resume and a renamed one is named.
    @Test func variantsCompareKeyByKey() throws {
        var settings = try Self.job(Self.items, directory: Fixture.temporaryDirectory(), resume: false).settings
        settings.variants = [.init(name: "a", description: "", model: "m.gguf", server: 1, fingerprint: "f1"),
                             .init(name: "b", description: "two words", model: "m.gguf", server: 1, fingerprint: "f2")]
        let flat = ResumeManifest.flatten(settings)
        #expect(flat["variants[1].name"] == "b" && flat["variants[0].fingerprint"] == "f1")
        #expect(!flat.values.contains { $0.contains("[") && $0.contains(":") }, "no dictionary description among the values")
        #expect(ResumeManifest.differences(settings, settings).isEmpty)
        var renamed = settings
        renamed.variants?[1].name = "c"
        #expect(ResumeManifest.differences(settings, renamed) == ["variants[1].name: b → c"])
    }

    /// A records log with a second, different record under one key (a ×10 latency line inserted first): resume, and
    /// every reader of the finished run, refuse it naming the key and both lines; an identical duplicate is harmless.
    /// A record no request can have (`total_ms` −500) is refused naming its line.
    @Test func conflictingDuplicatesAndImpossibleFiguresInTheRecordsLogAreRefused() async throws {
        let directory = try Fixture.temporaryDirectory()
        _ = try await Self.job(Self.items, directory: directory, resume: false).run()
        let log = directory.appendingPathComponent(GenerationOutput.recordsLog)
        let original = try String(contentsOf: log, encoding: .utf8)
        let lines = original.split(separator: "\n").map(String.init)
        var slow = try JSONDecoder().decode(GenerationRecord.self, from: Data(lines[0].utf8))
        slow.totalMs *= 10
        try (try JSONOutput.line(slow) + original).write(to: log, atomically: true, encoding: .utf8)
        let message = "lines 1 and 2 hold different records of item 'a', route direct, repeat 0"
        await #expect {
            _ = try await Self.job(Self.items, directory: directory, resume: true).run()
        } throws: { error in error is DamagedLog && "\(error)".contains(message) }
        #expect { _ = try GenerationOutput.read(directory.path) } throws: { "\($0)".contains(message) }

        try (lines[0] + "\n" + original).write(to: log, atomically: true, encoding: .utf8)
        #expect(try GenerationOutput.read(directory.path).records.count == 2, "an identical duplicate counts once")

        var negative = slow
        negative.totalMs = -500
        try (original + (try JSONOutput.line(negative))).write(to: log, atomically: true, encoding: .utf8)
        await #expect {
            _ = try await Self.job(Self.items, directory: directory, resume: true).run()
        } throws: { $0 is DamagedLog && "\($0)".contains("\(log.path):3: total_ms is -500.0; no request measures that") }
    }

    @Test func recordsWithoutAManifestAreRefused() async throws {
        let directory = try Fixture.temporaryDirectory()
        _ = try await Self.job(Self.items, directory: directory, resume: false).run()
        try FileManager.default.removeItem(at: directory.appendingPathComponent(ResumeManifest.file))
        await #expect(throws: ConfigurationError.self) { _ = try await Self.job(Self.items, directory: directory, resume: true).run() }
    }
}
