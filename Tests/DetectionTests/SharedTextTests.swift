@testable import Support
@testable import Detection
import Foundation
@testable import Corpus
import Provenance
import Testing

/// Texts shared by several languages: read with located errors, scored right when the answer is any of a text's languages,
/// shown per set of languages, and summed across shards.
struct SharedTextTests {
    /// Answers the language its text starts with (`ru: …` → ru; `und: …` abstains), item by item or on tasks.
    struct PrefixDetector: LanguageIdentifying {
        var onTasks: Bool
        var name: String { "prefix" }

        static func answer(_ text: String) -> Hypothesis? {
            let code = String(text.prefix { $0 != ":" })
            return code == "und" ? nil : Hypothesis(lang: LanguageCode(normalised: code), probability: 1)
        }

        func identify(_ text: String, candidates: [LanguageCode]?, hints: [LanguageCode: Double]) async -> DetectionOutcome {
            Self.answer(text).map { .hypotheses([$0]) } ?? .undetermined
        }

        func concurrentIdentifier(candidates: [LanguageCode]?, hints: [LanguageCode: Double]) -> (@Sendable (String) -> Hypothesis?)? {
            onTasks ? { @Sendable in Self.answer($0) } : nil
        }
    }

    static func write(_ text: String) throws -> String {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("shared-\(UUID().uuidString).ambiguous.tsv")
        try text.write(to: file, atomically: true, encoding: .utf8)
        return file.path
    }

    static let file = """
    id\tlangs\ttext\tsources
    a1\tmk;sr\tsr: Сачувај\tfirefox
    a2\tmk;sr\tbg: Сачувај\tfirefox
    a3\tmk;sr\tsr-Cyrl: Откажи\tcldr
    a4\tru;uk\tund: Так\tcldr
    a5\tru;uk\tru: Ок\tlibreoffice

    """

    @Test(arguments: [false, true])
    func aTextIsRightWhenTheAnswerIsAnyOfItsLanguages(onTasks: Bool) async throws {
        let shared = try SharedTexts.load(try Self.write(Self.file))
        #expect(shared.texts.map(\.id) == ["a1", "a2", "a3", "a4", "a5"] && shared.sha256.count == 64)
        let detector = PrefixDetector(onTasks: onTasks)
        let runner = try DetectionRunner(configs: [DetectionConfig(name: "c", detector: "prefix", candidates: .none)], supported: [], jobs: 2, batchSize: 2) { _ in detector }
        let slice = await runner.detect(shared, detectors: try await runner.makeDetectors())
        #expect(slice.texts == 5)
        #expect(slice.tallies == [.init(config: "c", languages: "mk;sr", n: 3, right: 2), .init(config: "c", languages: "ru;uk", n: 2, right: 1)],
                "sr and sr-Cyrl are right for mk;sr, bg is not; an abstention is wrong")
    }

    @Test func shardsOfOneFileAreSummed() {
        let one = SharedTextSlice(path: "x.ambiguous.tsv", sha256: "s", texts: 3, tallies: [.init(config: "c", languages: "mk;sr", n: 3, right: 2)])
        let two = SharedTextSlice(path: "x.ambiguous.tsv", sha256: "s", texts: 2, tallies: [.init(config: "c", languages: "mk;sr", n: 1, right: 1),
                                                                                          .init(config: "c", languages: "ru;uk", n: 1, right: 0)])
        let merged = SharedTextSlice.merged([[one], [two]])
        #expect(merged.count == 1 && merged[0].texts == 5)
        #expect(merged[0].tallies == [.init(config: "c", languages: "mk;sr", n: 4, right: 3), .init(config: "c", languages: "ru;uk", n: 1, right: 0)])
    }

    @Test func aShardReadsItsOwnTexts() throws {
        let path = try Self.write(Self.file)
        let shards = try (1...2).map { try SharedTexts.load(path, shard: try Shard("\($0)/2")).texts.map(\.id) }
        #expect(Set(shards[0]).isDisjoint(with: shards[1]) && (shards[0] + shards[1]).sorted() == ["a1", "a2", "a3", "a4", "a5"])
    }

    @Test(arguments: [
        ("a1\tmk\tСачувај\tfirefox", "at least two languages"),
        ("a1\tmk;xx-Yyyy-ZZ-q\tСачувај\tfirefox", "language code"),
        ("a1\tmk;sr\tСачувај", "expected 4 tab-separated fields"),
    ])
    func aBadLineIsNamedByFileAndLine(line: String, message: String) throws {
        let path = try Self.write("id\tlangs\ttext\tsources\na0\tbg;mk\tДа\tcldr\n\(line)\n")
        let error = try #require(throws: CorpusError.self) { try SharedTexts.load(path) }
        #expect(error.description.contains("\(path):3: ") && error.description.contains(message), "\(error)")
    }

    @Test func theTableShowsEachLargeSetAndSumsTheRest() throws {
        let slice = SharedTextSlice(path: "/c/outside.ambiguous.tsv", sha256: "s", texts: 260, tallies: [
            .init(config: "c", languages: "da;nb", n: 200, right: 150), .init(config: "c", languages: "mk;sr", n: 40, right: 10),
            .init(config: "c", languages: "bg;mk", n: 20, right: 20),
        ])
        var report = DetectionReport(echoes: [.init(name: "c", detector: "prefix", candidates: "none", resolvedCandidates: nil, hints: "")], results: [],
                                     timings: [], provenance: Provenance(command: ["test"], corpora: []))
        report.sharedTexts = [slice]
        let table = report.sharedTextTable(slice, title: "t")
        #expect(table.rows.map { $0.first?.display } == ["all", "da or nb", "2 other sets"])
        #expect(table.rows.map { $0[2].display } == ["69.2", "75.0", "50.0"])
        #expect(slice.name == "outside")
        #expect(report.markdown.contains("### Texts shared by several languages (`outside`)"))
    }
}
