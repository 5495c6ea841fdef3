@testable import Detection
import Foundation
@testable import Corpus
@testable import Suite
@testable import Provenance
import TestSupport
import Testing

/// A suite's `optional_corpora` (the outside corpus, built at set-up): read when there, with the packages its set-up listed
/// beside it and its items sliced on their own; when not there, the run goes on and says so in its provenance and reports.
struct OptionalCorporaTests {
    static func suite(in directory: URL, optional: String) throws -> BenchConfig {
        let json = """
        {"schema_version": 1, "detection": {"corpora": ["\(Fixture.path("corpus/tiny.tsv", target: "CorpusTests"))"], "optional_corpora": ["\(optional)"]}}
        """
        let file = directory.appendingPathComponent("bench.json")
        try json.write(to: file, atomically: true, encoding: .utf8)
        return try BenchConfig.load(file.path)
    }

    @Test func aMissingBuiltCorpusIsSaidAndTheRunGoesOn() async throws {
        let directory = try Fixture.temporaryDirectory()
        let out = directory.appendingPathComponent("run")
        let report = try await SuiteRunner(config: try Self.suite(in: directory, optional: "outside/outside.tsv"), directory: out, environment: [:],
                                           command: ["langbench", "run"]).run()
        let missing = directory.appendingPathComponent("outside/outside.tsv").path
        #expect(report.provenance.missingCorpora == [missing])
        #expect(report.provenance.corpora.count == 1)
        let sentence = MissingCorpus.sentence(missing)
        for file in [DetectionOutput.markdownFile, SuiteReport.markdownFile] {
            let text = try String(contentsOf: out.appendingPathComponent(file), encoding: .utf8)
            #expect(text.contains("**⚠️ \(sentence).**"), "\(file)")
        }
        #expect(try DetectionOutput.read(out.path).provenance.missingCorpora == [missing])
    }

    @Test func aBuiltCorpusIsReadWithItsPackagesAndSlicedOnItsOwn() async throws {
        let directory = try Fixture.temporaryDirectory()
        let built = directory.appendingPathComponent("outside")
        try FileManager.default.createDirectory(at: built, withIntermediateDirectories: true)
        try """
        id\tlang\ttext\ttags
        out-ru-1\tru\tСохранить как\tcluster:sw;corpus:outside;source:libreoffice;word-pairs
        out-uk-1\tuk\tЗберегти як\tcluster:sw;corpus:outside;source:libreoffice;word-pairs
        out-de-1\tde\tSpeichern unter\tcluster:browser.ftl;corpus:outside;source:firefox;word-pairs

        """.write(to: built.appendingPathComponent("outside.tsv"), atomically: true, encoding: .utf8)
        try "id\tlangs\ttext\tsources\namb-1\tbg;ru\tСохранить как\tlibreoffice\namb-2\tcs;sk\tUložit jako\tlibreoffice\n"
            .write(to: built.appendingPathComponent("outside.ambiguous.tsv"), atomically: true, encoding: .utf8)
        try "package\tversion\tsha256\nlibreoffice-l10n-ru\t7.4\tabc\nitems\toutside.tsv\tdef\n"
            .write(to: built.appendingPathComponent(SourcePackage.listFile), atomically: true, encoding: .utf8)
        let out = directory.appendingPathComponent("run")
        let report = try await SuiteRunner(config: try Self.suite(in: directory, optional: "outside/outside.tsv"), directory: out, environment: [:],
                                           command: ["langbench", "run"]).run()
        #expect(report.provenance.missingCorpora == nil)
        let source = try #require(report.provenance.corpora.first { $0.path.hasSuffix("outside/outside.tsv") })
        #expect(source.items == 3 && source.packages == [SourcePackage(name: "libreoffice-l10n-ru", version: "7.4", sha256: "abc")])
        let detection = try DetectionOutput.read(out.path)
        let slices = Set(detection.slices.map(\.slice))
        #expect(slices.isSuperset(of: ["tag=corpus:outside", "tag=source:firefox", "corpus-lang=outside:ru", "corpus-lang=outside:de", "corpus-length=outside:2-3"]))
        #expect(!slices.contains { $0.contains("cluster:") }, "a cluster groups near-duplicates; it is never a slice")
        #expect(detection.taggedCorpora == ["outside"])
        let markdown = try String(contentsOf: out.appendingPathComponent(DetectionOutput.markdownFile), encoding: .utf8)
        #expect(markdown.contains("### The `outside` corpus"))
        // The texts shared by languages: every config of the suite, scored as any of their languages; with candidates that hold
        // neither cs nor sk, a cs-or-sk text is wrong by construction.
        let shared = try #require(detection.sharedTexts.first)
        #expect(detection.sharedTexts.count == 1 && shared.texts == 2 && shared.path.hasSuffix("outside/outside.ambiguous.tsv"))
        #expect(Set(shared.tallies.map(\.config)) == Set(detection.configs.map(\.name)))
        let constrained = try #require(detection.configs.first { $0.resolvedCandidates.map { !$0.contains("cs") && !$0.contains("sk") } ?? false })
        #expect(shared.tallies.first { $0.config == constrained.name && $0.languages == "cs;sk" }?.right == 0)
        #expect(markdown.contains("### Texts shared by several languages (`outside`)"))
    }

    @Test func aBuiltCorpusWithoutItsSharedTextsSaysSo() async throws {
        let directory = try Fixture.temporaryDirectory()
        let built = directory.appendingPathComponent("outside")
        try FileManager.default.createDirectory(at: built, withIntermediateDirectories: true)
        try "id\tlang\ttext\ttags\nout-de-1\tde\tSpeichern unter\tcorpus:outside\n"
            .write(to: built.appendingPathComponent("outside.tsv"), atomically: true, encoding: .utf8)
        let out = directory.appendingPathComponent("run")
        let report = try await SuiteRunner(config: try Self.suite(in: directory, optional: "outside/outside.tsv"), directory: out,
                                           environment: [:], command: ["langbench", "run"]).run()
        #expect(report.provenance.missingCorpora == [built.appendingPathComponent("outside.ambiguous.tsv").path])
        #expect(try DetectionOutput.read(out.path).sharedTexts.isEmpty)
    }
}
