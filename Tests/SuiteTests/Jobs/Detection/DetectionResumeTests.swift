@testable import Support
@testable import Detection
import Foundation
@testable import Generation
@testable import Corpus
@testable import Suite
import TestSupport
import ByteIO
import Testing

/// `--resume` keeps logged results only when they were measured with the same configs, settings and item
/// content; otherwise it refuses with every difference named.
struct DetectionResumeTests {
    static let ru = LanguageCode(normalised: "ru"), uk = LanguageCode(normalised: "uk"), en = LanguageCode(normalised: "en"),
               bg = LanguageCode(normalised: "bg")

    static func job(_ directory: URL, corpus: Corpus = RunFixtures.corpus, candidates: [LanguageCode] = [ru, en], detector: String = "builtin",
                    factory: DetectorFactory = DetectorFactory(), resume: Bool = false) -> DetectionJob {
        DetectionJob(corpus: corpus, configs: [DetectionConfig(name: "custom", detector: detector, candidates: .list(candidates))], supported: [],
                     factory: factory, directory: directory, command: ["test"], resume: resume)
    }

    /// The refusal's differences, or an issue when the resume did not refuse.
    static func refusal(_ job: DetectionJob) async -> [String] {
        do {
            _ = try await job.run()
            Issue.record("the resume was accepted")
        } catch ResumeError.mismatch(let directory, let differences) {
            #expect(directory == job.directory.path)
            return differences
        } catch {
            Issue.record("expected ResumeError, got \(error)")
        }
        return []
    }

    @Test func otherCandidatesAreRefusedAndNamed() async throws {
        let directory = try Fixture.temporaryDirectory()
        _ = try await Self.job(directory).run()
        let differences = await Self.refusal(Self.job(directory, candidates: [Self.uk, Self.bg], resume: true))
        #expect(differences == ["config 'custom': candidates ru,en (ru,en) → uk,bg (uk,bg)"])
    }

    @Test func changedItemTextUnderTheSameIDIsRefused() async throws {
        let directory = try Fixture.temporaryDirectory()
        _ = try await Self.job(directory).run()
        var changed = RunFixtures.corpus
        changed.items[3].text = "другое слово"
        changed.items[70].lang = Self.uk
        let differences = await Self.refusal(Self.job(directory, corpus: changed, resume: true))
        #expect(differences == ["2 item(s) changed text, language or tags under the same id: 'ru-010', 'uk-003'"])
    }

    @Test func itemsMissingFromTheCorpusAreRefused() async throws {
        let directory = try Fixture.temporaryDirectory()
        _ = try await Self.job(directory).run()
        var fewer = RunFixtures.corpus
        fewer.items.removeLast()
        let differences = await Self.refusal(Self.job(directory, corpus: fewer, resume: true))
        #expect(differences == ["1 logged item(s) are not in the corpus: 'ru-019'"])
    }

    @Test func otherSettingsAreRefused() async throws {
        let directory = try Fixture.temporaryDirectory()
        _ = try await Self.job(directory, detector: RunFixtures.detector).run()
        let differences = await Self.refusal(Self.job(directory, detector: RunFixtures.detector, factory: DetectorFactory(timeout: .seconds(3)), resume: true))
        #expect(differences == ["exec timeout 10.0 s → 3.0 s"])
    }

    @Test func aLogWithoutAHeaderCannotBeCheckedSoIsRefused() async throws {
        let directory = try Fixture.temporaryDirectory()
        _ = try await Self.job(directory).run()
        let log = directory.appendingPathComponent(DetectionOutput.resultsLog)
        try DetectionResultLogTests.downgrade(log, to: 1)
        await #expect(throws: DetectionResultLogTests.olderFormat(log, 1)) { try await Self.job(directory, resume: true).run() }
    }

    @Test func theSameRunResumesAndChangesNothing() async throws {
        let directory = try Fixture.temporaryDirectory()
        _ = try await Self.job(directory).run()
        let csv = try String(contentsOf: directory.appendingPathComponent(DetectionOutput.itemsFile), encoding: .utf8)
        let resumed = try await Self.job(directory, resume: true).run()
        #expect(resumed.timings.map(\.items) == [0], "everything was logged")
        #expect(try String(contentsOf: directory.appendingPathComponent(DetectionOutput.itemsFile), encoding: .utf8) == csv)
    }

    @Test func headerDifferencesAreMatchedByConfigName() {
        let echo = { (name: String, hints: String) in
            DetectionReport.ConfigEcho(name: name, detector: "builtin", candidates: "none", resolvedCandidates: nil, hints: hints)
        }
        let before = DetectionLogHeader(configs: [echo("a", "none"), echo("b", "none")], settings: .init(recognizerModelHash: "1111aaaa2222bbbb"))
        let reordered = DetectionLogHeader(configs: [echo("b", "none"), echo("a", "none")], settings: .init(recognizerModelHash: "1111aaaa2222bbbb"))
        #expect(reordered.differences(from: before).isEmpty, "config order does not change a result")
        let changed = DetectionLogHeader(configs: [echo("a", "ru=0.5"), echo("c", "none")], settings: .init(recognizerModelHash: "3333cccc4444dddd"))
        #expect(changed.differences(from: before) == [
            "config 'a': hints none → ru=0.5",
            "config 'c' is new (the log has 'a', 'b')",
            "config 'b' is in the log but not in this run",
            "recognizer model 1111aaaa2222 → 3333cccc4444 (content hash)",
        ])
    }

    /// The header's model hash: the same for any split of the bytes, changed by any one byte and by a
    /// trailing zero byte, and pinned (logs record it).
    @Test func theModelHashStreamsAndNoticesEveryByte() {
        var random = SplitMix64(seed: 3)
        let bytes = (0..<1000).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        func hash(_ bytes: [UInt8], cuts: [Int] = []) -> String {
            var hash = ModelHash()
            var start = 0
            for cut in cuts + [bytes.count] {
                bytes[start..<cut].withBytes { hash.add($0) }
                start = cut
            }
            return hash.hex
        }
        let whole = hash(bytes)
        for _ in 0..<50 {
            let cuts = (0..<Int(random.next() % 6)).map { _ in Int(random.next() % 1001) }.sorted()
            #expect(hash(bytes, cuts: cuts) == whole)
        }
        for position in stride(from: 0, to: bytes.count, by: 37) {
            var changed = bytes
            changed[position] ^= 0x01
            #expect(hash(changed) != whole)
        }
        #expect(hash(bytes + [0]) != whole)
        #expect(hash([]) != hash([0]))
        #expect(hash(Array("LangBench".utf8)) == "a1d98795c11ccaca")
    }
}
