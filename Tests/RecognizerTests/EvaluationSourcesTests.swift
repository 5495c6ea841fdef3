import Foundation
@testable import Recognizer
import Testing
import TestSupport

/// The outside evaluation corpus and the recognizer's training data share no source.
struct EvaluationSourcesTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// No list the committed model was trained on comes from a package the outside corpus is built from, and every
    /// package family the set-up script downloads for that corpus is one `EvaluationSources` names.
    @Test func theCommittedModelIsTrainedOnNoSourceOfTheOutsideCorpus() throws {
        let sources = TestModel.shared.metadata.sources
        #expect(sources.count >= 24, "\(sources.count)")
        #expect(sources.compactMap(EvaluationSources.package(in:)).isEmpty)
        let script = try String(contentsOf: Self.root.appendingPathComponent("scripts/setup-outside-corpus"), encoding: .utf8)
        for family in ["unicode-cldr-core", "firefox-esr-l10n-", "libreoffice-l10n-"] {
            #expect(script.contains(family) && EvaluationSources.packages.contains(family), "\(family)")
        }
        // The model's own sources are what PROVENANCE.md says: wordfreq and three hunspell dictionaries.
        #expect(sources.allSatisfy { $0.contains("wordfreq") || $0.contains("hunspell-") || $0.contains("OpenCC") }, "\(sources)")
    }

    @Test func trainRefusesAListFromAnOutsideCorpusPackage() throws {
        let directory = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try "# lang\tkind\twords\tsha256\tsource\nru\tfrequency\t1\t-\tdebian firefox-esr-l10n-ru 153.8.0esr-1 strings\n"
            .write(to: directory.appendingPathComponent("manifest.tsv"), atomically: true, encoding: .utf8)
        try "привет\t1\n".write(to: directory.appendingPathComponent("ru.tsv"), atomically: true, encoding: .utf8)
        #expect(throws: TrainingError.evaluationSource(path: directory.appendingPathComponent("manifest.tsv").path, line: 2,
                                                       package: "firefox-esr-l10n-ru")) {
            try WordList.readExport(directory: directory)
        }
        #expect(EvaluationSources.package(in: "wordfreq 3.1.1 large_ru") == nil)
        #expect(EvaluationSources.package(in: "debian unicode-cldr-core 41") == "unicode-cldr-core")
    }
}
