@testable import Support
@testable import Detection
import Foundation
@testable import Generation
@testable import Corpus
@testable import Suite
import TestSupport
import Testing

/// Config names and tags come from files anyone can write; in `detection.md` they are
/// text, never HTML, and a newline in one cannot split a heading or a table row.
struct MarkdownEscapeTests {
    @Test func configNamesAndTagsAreInertInDetectionMarkdown() async throws {
        let hostile = "<script>alert(1)</script>\n# injected"
        let configs = [DetectionConfig(name: "plain", detector: RunFixtures.detector),
                       DetectionConfig(name: hostile, detector: RunFixtures.detector,
                                       candidates: .list([LanguageCode(normalised: "uk"), LanguageCode(normalised: "ru")]))]
        var corpus = RunFixtures.corpus
        corpus.items[0].tags = Set(["<img src=x onerror=alert(1)>"])
        let report = try await DetectionJob(corpus: corpus, configs: configs, supported: [], factory: DetectorFactory(),
                                            directory: try Fixture.temporaryDirectory(), command: ["test"]).run()
        let markdown = report.markdown
        #expect(!markdown.contains("<script>") && !markdown.contains("<img"), "raw HTML from data")
        #expect(markdown.contains("&lt;script&gt;alert(1)&lt;/script&gt; # injected"))
        #expect(!markdown.split(separator: "\n").contains { $0.hasPrefix("# injected") }, "a newline in a name started a heading")
    }

    @Test(arguments: [("a|b", "a\\|b"), ("line\nbreak", "line break"), ("x\r\ny", "x y"), ("<b>", "&lt;b&gt;")])
    func cellsAreOneInertLine(text: String, escaped: String) {
        #expect(MarkdownWriter.escape(text) == escaped)
    }
}
