@testable import Support
import Checks
@testable import Detection
import Foundation
@testable import Generation
import GenerationTestSupport
@testable import Corpus
@testable import Suite
@testable import Comparison
import Provenance
import TestSupport
import Testing

/// Names, tags, ids, paths and commands come from files and flags anyone writes. One hostile string goes
/// through every writer — detection.md, generation.md (prose, lists, headings, tables), report.md,
/// compare.md, the SVG charts and the CSV files — and nothing of it survives raw: no tag, no closed code
/// span, no split line, no bidi override, no spreadsheet formula.
struct HostileTextTests {
    static let hostile = "=cmd|' /C calc'!A0 `x` <img src=x onerror=alert(1)> \"><script>alert(2)</script> [a](javascript:alert(3))\n# injected | \u{202E}txt.exe\u{0}"

    /// What must not appear in Markdown: a tag, the end of an attribute, a link, a heading, a code span, a bidi override.
    static let markdownRaw = ["<img", "<script", "\">", "](javascript:", "\n# injected", "\u{202E}", "`x`", "\u{0}"]
    /// What must not appear in SVG or XML (where backticks and brackets are only text).
    static let xmlRaw = ["<img", "<script", "\"><", "\n# injected", "\u{202E}", "\u{0}"]

    static func expectInert(_ text: String, _ what: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        for fragment in what.hasSuffix(".md") ? markdownRaw : xmlRaw {
            #expect(!text.contains(fragment), "\(what) holds raw \(fragment.debugDescription)", sourceLocation: sourceLocation)
        }
    }

    @Test(arguments: [
        (ReportText.Context.markdownInline, "a`b`<c>&[d](e)\\f\ng\r\nh\u{202E}", "a&#96;b&#96;&lt;c&gt;&amp;&#91;d&#93;(e)&#92;f g h⟨U+202E⟩"),
        (.markdownCell, "a|b\n<c>", "a\\|b &lt;c&gt;"),
        (.markdownCode, "plain_name*", "`plain_name*`"),
        (.markdownCode, "a`b` <i>|x", "<code>a&#96;b&#96; &lt;i&gt;&#124;x</code>"),
        (.markdownCode, "", "<code></code>"),
        (.xml, "\"a\" & 'b' <c>\u{0}\u{2067}", "&quot;a&quot; &amp; &#39;b&#39; &lt;c&gt; ⟨U+2067⟩"),
        (.html, "\"><script>", "&quot;&gt;&lt;script&gt;"),
    ])
    func contexts(context: ReportText.Context, text: String, escaped: String) {
        #expect(ReportText.escape(text, for: context) == escaped)
    }

    @Test func linksToFilesCannotStartASchemeOrEndTheLink() {
        #expect(ReportText.relativeLink("detection.md") == "detection.md")
        #expect(ReportText.relativeLink("javascript:alert(1)") == "javascript%3Aalert%281%29")
        #expect(ReportText.relativeLink("a b\n") == "a%20b%0A")
    }

    /// A detection run whose config name, tag, item ids and corpus path are hostile; a second run without
    /// candidates breaks every Ukrainian item, so compare.md lists the hostile ids and config.
    @Test func detectionSuiteAndCompareWritersLeaveNothingRaw() async throws {
        let configs = [DetectionConfig(name: Self.hostile, detector: RunFixtures.detector,
                                       candidates: .list([LanguageCode(normalised: "uk"), LanguageCode(normalised: "ru")]))]
        var corpus = RunFixtures.corpus
        for index in corpus.items.indices { corpus.items[index].id = Self.hostile + corpus.items[index].id }
        corpus.items[0].tags = [Self.hostile]
        corpus.sources[0].path = Self.hostile
        func run(_ configs: [DetectionConfig]) async throws -> (DetectionReport, RunResults) {
            let directory = try Fixture.temporaryDirectory()
            let report = try await DetectionJob(corpus: corpus, configs: configs, supported: [], factory: DetectorFactory(), directory: directory,
                                                command: ["langbench", "detect", "--configs", Self.hostile]).run()
            var results = try RunResults.load(directory.path)
            results.path = Self.hostile
            return (report, results)
        }
        let (report, base) = try await run(configs)
        Self.expectInert(report.markdown, "detection.md")
        Self.expectInert(report.lengthChart, "detection-length.svg")
        Self.expectInert(try #require(report.confusionChart), "detection-cyrillic.svg")
        #expect(report.markdown.contains("<code>=cmd&#124;&#39; /C calc&#39;!A0 &#96;x&#96; &lt;img src=x onerror=alert(1)&gt;"))
        let csv = CSVWriter.render(report.summaryTable)
        #expect(!csv.contains(",=cmd") && !csv.contains("\n=cmd") && csv.contains("'=cmd"), "a formula reached detection-summary.csv")
        let suite = SuiteReport(runID: Self.hostile, shard: nil, provenance: report.provenance, detection: report, generation: nil,
                                files: [Self.hostile])
        Self.expectInert(suite.markdown, "report.md")

        var unconstrained = configs
        unconstrained[0].candidates = .none
        let (_, current) = try await run(unconstrained)
        let comparison = try Comparison(base: base, current: current, thresholds: .default, allowMismatch: true)
        #expect(!comparison.brokenItems.isEmpty)
        Self.expectInert(comparison.markdown, "compare.md")
        Self.expectInert(comparison.junit, "compare.junit.xml")
    }

    /// generation.md's prose, variant list, reference heading, tables and charts with hostile profile,
    /// detection and variant names, description and model.
    @Test func generationWritersLeaveNothingRaw() throws {
        func labelled(_ name: String, as variant: String) throws -> [GenerationRecord] {
            try GenerationFixtures.records(name).map { var record = $0; record.variant = variant; return record }
        }
        var settings = GenerationFixtures.settings
        settings.profile = Self.hostile
        settings.detection = Self.hostile
        settings.variants = [
            .init(name: Self.hostile, description: Self.hostile, model: Self.hostile, server: 1, fingerprint: String(repeating: "a", count: 64)),
            .init(name: "second" + Self.hostile, description: "", model: "m.gguf", server: 1, fingerprint: String(repeating: "b", count: 64)),
        ]
        var provenance = GenerationFixtures.provenance("variants")
        provenance.command = ["langbench", "generate", "--profile", Self.hostile]
        let report = GenerationReport(records: try labelled("base", as: Self.hostile) + labelled("current", as: "second" + Self.hostile),
                                      settings: settings, warmupRuns: 4, provenance: provenance)
        Self.expectInert(report.markdown, "generation.md")
        #expect(report.markdown.contains("## Reference variant <code>"))
        Self.expectInert(report.variantChart, "generation-variants.svg")
        let csv = CSVWriter.render(report.summaryTable) + CSVWriter.render(report.itemsTable)
        #expect(!csv.contains(",=cmd") && !csv.contains("\n=cmd"), "a formula reached a generation CSV")
    }

    @Test func svgLabelsAreText() {
        let chart = SVGBarChart(title: Self.hostile, unit: Self.hostile, series: [Self.hostile], groups: [.init(label: Self.hostile, values: [1])]).render()
        let heatmap = SVGHeatmap(title: Self.hostile, rowLabels: [Self.hostile], columnLabels: [Self.hostile], counts: [[1]]).render()
        for svg in [chart, heatmap] {
            Self.expectInert(svg, "chart.svg")
            #expect(!svg.contains("\u{0}") && svg.split(separator: "\n").allSatisfy { !$0.hasPrefix("# injected") })
        }
    }
}
