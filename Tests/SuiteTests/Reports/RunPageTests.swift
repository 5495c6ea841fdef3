@testable import Support
@testable import Detection
import Foundation
@testable import Generation
import GenerationTestSupport
@testable import Corpus
@testable import Suite
import Comparison
import TestSupport
import Testing

/// report.html without a browser: its data section pinned, the escaping of hostile corpus text, crisis
/// items as counts only, the row cap, and the policy that forbids every request.
struct RunPageTests {
    /// A corpus written to break out of every context it lands in.
    static let hostile = [
        "<script>document.title='pwned';window.pwned=1</script>",
        "\"><img src=x onerror=\"document.title='pwned';window.pwned=1\">",
        "javascript:window.pwned=1",
        "abc\u{202E}gnp.exe\u{202C} rtl",
        String(repeating: "x", count: 10_000),
    ]
    static let crisisText = "CRISIS-TEXT-NEVER-SHOWN"

    /// Two configs that disagree on every item, over hostile ids, tags and texts, and one crisis item.
    static func hostilePage() throws -> String {
        let echoes = ["a", "b\"><script>window.pwned=1</script>"].map {
            DetectionReport.ConfigEcho(name: $0, detector: "builtin", candidates: "none", resolvedCandidates: nil, hints: "none")
        }
        var texts = ItemTexts()
        var results: [DetectionResult] = []
        for (index, text) in (hostile + [crisisText]).enumerated() {
            let id = index == hostile.count ? "crisis-1" : "<b id=x>\(index)</b>'\"&"
            if index == hostile.count { texts.crisis.insert(id) } else { texts.texts[id] = text }
            for (c, echo) in echoes.enumerated() {
                results.append(DetectionResult(itemID: id, lang: LanguageCode(normalised: "uk"), tags: ["<svg onload=window.pwned=1>"], length: .one,
                                               config: echo.name, detector: "builtin", predicted: LanguageCode(normalised: c == 0 ? "uk" : "ru"),
                                               confidence: 0.5, error: nil))
            }
        }
        let detection = DetectionReport(echoes: echoes, results: results, timings: [], provenance: GenerationFixtures.provenance("hostile"))
        let generation = try GenerationFixtures.report("base")
        var replies: [String: String] = [:]
        for (index, record) in generation.records.enumerated() {
            replies[record.key] = hostile[index % hostile.count] + (record.fallbackReason == .crisisProtocol ? crisisText : "")
            texts.texts[record.itemID] = hostile[(index + 1) % hostile.count] + (record.fallbackReason == .crisisProtocol ? crisisText : "")
        }
        return RunPage.render(detection: detection, results: results, generation: generation, replies: replies, texts: texts, runID: "hostile")
    }

    @Test func hostileCorpusIsTextOnly() throws {
        let html = try Self.hostilePage()
        let data = HTMLPage.dataSection(html)
        #expect(!data.isEmpty)
        for raw in ["<script", "<img", "<svg onload", "onerror=\"", "<b id=x>", "\u{202E}", "\u{202C}"] {
            #expect(!data.contains(raw), "raw \(raw) in the data section")
        }
        #expect(data.contains("&lt;script&gt;document.title=&#39;pwned&#39;"))
        #expect(data.contains("⟨U+202E⟩"))
        #expect(!html.contains(Self.crisisText), "a crisis item's text or reply reached the page")
        #expect(html.components(separatedBy: "<script").count == 2, "one script: the page's own")
        #expect(!html.contains("href=\"javascript") && !html.contains(" src=\""))
    }

    @Test func policyForbidsEveryRequestAndForeignScript() {
        let policy = HTMLPage.contentSecurityPolicy
        #expect(policy.hasPrefix("default-src 'none'"))
        #expect(policy.contains("script-src '\(HTMLPage.hash(HTMLAssets.script))'") && !policy.contains("unsafe-inline"))
        #expect(HTMLPage(title: "t").html.contains("http-equiv=\"Content-Security-Policy\" content=\"\(policy)\""))
    }

    @Test func aLargeTableIsCappedAndSaysSo() {
        var table = ReportTable(title: "Big", columns: [.init("item_id")])
        for i in 0..<12 { table.append([.text("i\(i)")]) }
        let html = HTMLWriter.render(table, id: "big", rowCap: 5, overflowNote: "detection-items.csv")
        #expect(html.components(separatedBy: "<tr>").count - 1 == 1 + 5)
        #expect(html.contains("Showing the first 5 of 12 rows; the other 7 are counted here and listed in detection-items.csv."))
        #expect(html.contains("data-rows=\"12\""))
    }

    @Test func longTextIsCutOnThePageOnly() {
        let cell = HTMLWriter.cell(.text(String(repeating: "y", count: 10_000)))
        #expect(cell.contains("(10000 characters)") && cell.count < 1_200)
    }

    /// The data section (tables, charts, drill-downs, provenance) pinned; styling and script are not.
    @Test func suitePageDataSection() async throws {
        // Two configs that disagree (Ukrainian first among the candidates, or no candidates), so items differ.
        let runs = [try await RunFixtures.detect(constrained: true), try await RunFixtures.detect(constrained: false)]
        let names = ["constrained", "unconstrained"]
        let echoes = zip(runs, names).flatMap { run, name in (run.detection?.configs ?? []).map { var echo = $0; echo.name = name; echo.detector = "DETECTOR"; return echo } }
        let results = try zip(runs, names).flatMap { run, name in try run.detectionResults.map { var result = $0; result.config = name; result.detector = "DETECTOR"; return result } }
        let detection = DetectionReport(echoes: echoes, results: results, timings: [], provenance: GenerationFixtures.provenance("detect"))
        var texts = ItemTexts()
        for item in RunFixtures.corpus.items { texts.texts[item.id] = item.text }
        let html = RunPage.render(detection: detection, results: results, generation: try GenerationFixtures.report("base"), replies: [:],
                                  texts: texts, runID: "fixture")
        Snapshot.assert(HTMLPage.dataSection(html), named: "report.html-data.html")
    }
}

/// A detect-only run has no crisis records: the page finds crisis items by tag and keyword in the corpus.
struct RunPageCrisisTests {
    @Test func aDetectRunsPageShowsNoCrisisText() async throws {
        let directory = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let corpus = directory.appendingPathComponent("c.tsv")
        try """
        id\tlang\ttext\ttags
        a\ten\tgood morning my friend\t
        b\ten\tI want to end my life tonight\t
        c\tuk\tдобрий ранок, друже\tcrisis
        d\tru\tдоброе утро, друг\t

        """.write(to: corpus, atomically: true, encoding: .utf8)
        let loaded = try CorpusLoader().load([corpus.path])
        // German as the only candidate: every answer differs from the unconstrained one, so every text could be listed.
        let configs = [DetectionConfig(name: "open", detector: "builtin"),
                       DetectionConfig(name: "german", detector: "builtin", candidates: .list([LanguageCode(normalised: "de")]))]
        let detected = try await DetectionJob(corpus: loaded, configs: configs, supported: [], factory: DetectorFactory(),
                                              directory: directory, command: ["test"]).run()
        try RunPage.write(detection: detected, generation: nil, to: directory)
        let page = try String(contentsOf: directory.appendingPathComponent(RunPage.file), encoding: .utf8)
        #expect(!page.contains("end my life") && !page.contains("добрий ранок"))
        #expect(page.contains("доброе утро, друг") && page.contains("good morning my friend"), "non-crisis texts are shown")
        #expect(page.contains("crisis-flagged item(s) differ too"))
        let texts = ItemTexts.load(loaded.sources)
        #expect(texts.crisis == ["b", "c"] && texts.text("a") == "good morning my friend")

        // The corpus edited after the run: its ids may name other texts now, so none is shown and the file is named.
        try String(contentsOf: corpus, encoding: .utf8).replacingOccurrences(of: "good morning", with: "good evening")
            .write(to: corpus, atomically: true, encoding: .utf8)
        let changed = ItemTexts.load(loaded.sources)
        #expect(changed.texts.isEmpty && changed.problem?.hasPrefix("\(corpus.path) changed since the run (SHA-256 ") == true)
        let report = try DetectionStore(directory.path).report
        try RunPage.write(detection: report, generation: nil, to: directory)
        let rewritten = try String(contentsOf: directory.appendingPathComponent(RunPage.file), encoding: .utf8)
        #expect(!rewritten.contains("good evening") && !rewritten.contains("доброе утро") && rewritten.contains("changed since the run"))
    }
}

/// A shard's page reads (and checks for crisis keywords) only its own items' texts.
struct ShardPageTextsTests {
    @Test func aShardReadsOnlyItsOwnItems() throws {
        let path = PipelineFixture.repository.appendingPathComponent("Corpora/short-phrases.tsv").path
        let corpus = try CorpusLoader().load([path])
        let shard = try Shard("3/12")
        let texts = ItemTexts.load(corpus.sources, shard: shard)
        let own = corpus.items.filter { shard.contains($0.id) }
        #expect(!own.isEmpty && own.count < corpus.items.count)
        #expect(Set(texts.texts.keys).union(texts.crisis) == Set(own.map(\.id)))
        #expect(ItemTexts.load(corpus.sources).texts.count + ItemTexts.load(corpus.sources).crisis.count == corpus.items.count)
    }
}
