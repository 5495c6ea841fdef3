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

/// report.html and the compare page in real headless Chromium: no console error, no request, filters
/// that show the rows the CSV counts, hostile text that runs nothing, and a screenshot for a person.
@Suite(.serialized, .needs(.browser))
struct BrowserTests {
    /// The repository root (where bench.json and Corpora/ are).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The checks themselves can fail: a page that logs an error and fetches an image is caught.
    @Test func theCheckerCatchesAnErrorAndARequest() throws {
        let directory = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let page = directory.appendingPathComponent("bad.html")
        try #"<!DOCTYPE html><title>t</title><script>console.error("injected")</script><img src="http://127.0.0.1:9/x.png">"#
            .write(to: page, atomically: true, encoding: .utf8)
        let load = try Browser.load(page, evaluate: ["document.title"])
        #expect(load.errors.contains("injected"))
        #expect(load.requests == ["http://127.0.0.1:9/x.png"])
        #expect(load.results == ["t"])
    }

    /// The default suite's detection half measured for real (bench.json's corpora and configs, the
    /// built-in recognizer), with the fixture generation run beside it (the model half is slow and has
    /// its own tests): the page loads clean, filters show the CSV's counts, and a screenshot is written.
    @Test func defaultSuitePageLoadsCleanAndFiltersMatchTheCSV() async throws {
        let directory = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let corpora = ["Corpora/short-phrases.tsv", "Corpora/cyrillic-confusables.tsv"].map { Self.root.appendingPathComponent($0).path }
        let corpus = try CorpusLoader().load(corpora)
        let supported = try ModelProfile.load(Self.root.appendingPathComponent(ModelProfile.defaultResource).path).supportedLanguages
        let detection = try await DetectionJob(corpus: corpus, configs: DetectionConfig.defaults(), supported: supported, factory: DetectorFactory(),
                                               directory: directory, command: ["test"]).run()
        let generation = try GenerationFixtures.report("base")
        try GenerationOutput.write(generation, to: directory)  // writes generation-items.csv
        try RunPage.write(detection: detection, generation: generation, to: directory, runID: "default")
        let page = directory.appendingPathComponent(RunPage.file)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: page.path)[.size] as? Int)
        #expect(size <= 5_000_000)

        let detectionRows = try csv(directory.appendingPathComponent(DetectionOutput.itemsFile))
        // Crisis-flagged items (by the run or by the keyword list over their text) are counted, never listed.
        let all = try csv(directory.appendingPathComponent(GenerationOutput.itemsFile))
        let crisis = Set(all.filter { $0["fallback_reason"] == "crisis-protocol" }.compactMap { $0["item_id"] })
            .union(ItemTexts.load(generation.provenance.corpora).crisis)
        let generationRows = all.filter { !crisis.contains($0["item_id"] ?? "") }
        let last = try #require(detection.configs.last?.name)
        let fixed = detectionRows.filter { $0["config"] == last && $0["flip"] == "fixed" }.count
        let broken = detectionRows.filter { $0["config"] == last && $0["flip"] == "broken" }.count
        // Misdetected items: the last config's wrong answers, then those whose true language was not a candidate, then
        // of those the ones answered ru (the filters add up).
        let candidates = try #require(detection.configs.last?.resolvedCandidates).map(LanguageCode.init(normalised:))
        let wrong = detectionRows.filter { $0["config"] == last && $0["correct"] == "false" && !crisis.contains($0["item_id"] ?? "") }
        let outside = wrong.filter { row in !candidates.contains { $0.isEquivalent(to: LanguageCode(normalised: row["lang"] ?? "")) } }
        // Items (not crisis-flagged) the last and the first config answer differently.
        let first = try #require(detection.configs.first?.name)
        let answers = Dictionary(grouping: detectionRows.filter { !crisis.contains($0["item_id"] ?? "") }, by: { $0["item_id"] ?? "" })
        let pairDiffers = answers.values.filter { rows in rows.first { $0["config"] == last }?["predicted"] != rows.first { $0["config"] == first }?["predicted"] }.count
        let json = { (text: String) in String(decoding: try! JSONEncoder().encode(text), as: UTF8.self) }
        let checks: [(expression: String, expected: String)] = [
            (Browser.filter(MisdetectedItems.tableID, "config", last), String(wrong.count)),
            (Browser.filter(MisdetectedItems.tableID, "candidate", "no"), String(outside.count)),
            (Browser.filter(MisdetectedItems.tableID, "predicted", "ru"), String(outside.filter { $0["predicted"] == "ru" }.count)),
            // The heatmap's uk → ru cell links to exactly those items (its link resets the candidate filter).
            ("""
             (function(){var a=document.querySelector('figure a[href*="lang=uk&predicted=ru"]');if(!a){return "no link";}
             history.replaceState(null,"",a.getAttribute("href"));window.dispatchEvent(new HashChangeEvent("hashchange"));
             var t=document.getElementById(\(String(decoding: try JSONEncoder().encode(MisdetectedItems.tableID), as: UTF8.self)));
             return (\(Browser.matchingRows))(t);})()
             """, String(wrong.filter { $0["lang"] == "uk" && $0["predicted"] == "ru" }.count)),
            (Browser.filter(DetectionItems.tableID, "flip:\(last)", "fixed"), String(fixed)),
            (Browser.filter(DetectionItems.tableID, "flip:\(last)", "broken"), String(broken)),
            (Browser.sideBySide(GenerationItems.tableID, selects: ["route": "pivot"]), "\(items(generationRows)) 1"),
            (Browser.sideBySide(GenerationItems.tableID, selects: ["route": "pivot"], flags: ["not-served"]),
             "\(items(generationRows) { $0["route"] == "pivot" && $0["served_in_own_language"] == "false" }) 1"),
            (Browser.sideBySide(GenerationItems.tableID, selects: ["lang": "de"]), "\(items(generationRows) { $0["lang"] == "de" }) 2"),
            (Browser.sideBySide(GenerationItems.tableID, flags: ["fallback"]), "\(items(generationRows) { $0["outcome"] == "fallback" }) 2"),
            (Browser.sideBySide(GenerationItems.tableID), "\(items(generationRows)) 2"),
            // The config selector: the last config compared with the first shows the items those two answer differently, and
            // only their two answer columns; the per-language table shows one config's columns, then all of them.
            ("""
             (function(){var t=document.getElementById('\(DetectionItems.tableID)');\(Browser.unfold)var f=t.previousElementSibling.previousElementSibling;
             Array.prototype.forEach.call(f.querySelectorAll('select[data-filter]'),function(s){s.value='\\u0000all';});
             var v=document.querySelector('select[data-view=config]');v.value=\(json(last));v.dispatchEvent(new Event('change'));
             var o=f.querySelector('select[data-view=other]');o.value=\(json(first));o.dispatchEvent(new Event('change'));
             var answers=Array.prototype.filter.call(t.tHead.rows[0].cells,function(c){return c.getClientRects().length>0&&/^answer:/.test(c.getAttribute('data-col'));});
             return (\(Browser.matchingRows))(t)+' '+answers.length;})()
             """, "\(pairDiffers) 2"),
            ("""
             (function(){var t=document.getElementById('detection-languages'),v=document.querySelector('select[data-view=config]');
             var shown=function(){return Array.prototype.filter.call(t.tHead.rows[0].cells,function(c){return c.getClientRects().length>0;}).length;};
             v.value=\(json(first));v.dispatchEvent(new Event('change'));var one=shown();v.value='\\u0000all';v.dispatchEvent(new Event('change'));
             return one+' '+shown();})()
             """, "5 \(2 + 3 * detection.primaryConfigs.count)"),
        ]
        let screenshot = Self.root.appendingPathComponent(".build/report-1280.png")
        let load = try Browser.load(page, evaluate: checks.map(\.expression), screenshot: screenshot)
        #expect(load.errors.isEmpty, "console: \(load.errors)")
        #expect(load.requests.isEmpty, "requests: \(load.requests)")
        #expect(load.results == checks.map(\.expected))
        #expect(fixed + broken > 0 && pairDiffers > 0, "the default suite's configs differ on some items")
        #expect(outside.count > 0 && outside.count < wrong.count, "the last config misses items inside and outside its candidates")
        #expect(FileManager.default.fileExists(atPath: screenshot.path))

        // Sorting reorders rows; at 200% zoom the headline still fits the window; printed, the controls go.
        let sortByAccuracy = """
            (function(){var t=document.getElementById('detection-configs');var b=t.tHead.querySelector('th[data-col="accuracy_pct"] button');
            b.click();var first=t.tBodies[0].rows[0].cells[5].textContent;b.click();return first+" "+t.tBodies[0].rows[0].cells[5].textContent;})()
            """
        let accuracies = detection.configs.compactMap { detection.metrics(config: $0.name) }.map { ReportCell.percent($0.accuracy).display }
        let zoomed = try Browser.load(page, evaluate: [sortByAccuracy, "String(document.querySelector('.headline').getBoundingClientRect().right <= window.innerWidth)"],
                                      zoom: 2)
        #expect(zoomed.results == ["\(accuracies.min { Double($0)! < Double($1)! }!) \(accuracies.max { Double($0)! < Double($1)! }!)", "true"])
        let printed = try Browser.load(page, evaluate: ["getComputedStyle(document.querySelector('form.filters')).display"], media: "print")
        #expect(printed.results == ["none"])
        #expect(zoomed.errors.isEmpty && printed.errors.isEmpty)
    }

    /// The committed baseline's page (2072 detection items × 11 configs, both routes, two pivot engines), laid out as a person
    /// reads it on a laptop (1280×800) and on a phone (390×844): the page itself never scrolls sideways (a wide table
    /// scrolls inside its own box), no cell is squeezed narrower than 32 px while holding more than two characters, the
    /// first screen holds the headline of at most six facts, the route decision table is there, the per-item lists are
    /// folded (the page is under 40 screens at 1280 px), an opened list shows one page of rows that its pager moves on,
    /// and no table's header row is taller than two lines.
    @Test func theBaselinePageIsReadableAtLaptopAndPhoneWidths() async throws {
        let directory = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("baseline")
        _ = try await RunMerger.mergeRun([Self.root.appendingPathComponent("Reports/baseline").path], into: out, command: ["langbench", "merge"])
        let paging = """
            (function(){var t=document.getElementById('\(MisdetectedItems.tableID)');\(Browser.unfold)
            var shown=function(){return Array.prototype.filter.call(t.tBodies[0].rows,function(r){return r.getClientRects().length>0;});};
            var first=shown(),next=t.nextElementSibling.querySelectorAll('button')[1];next.click();var second=shown();
            return first.length+" "+second.length+" "+(first[0]!==second[0])+" "+t.getAttribute('data-visible');})()
            """
        let measures = [
            "String(document.documentElement.scrollWidth <= document.documentElement.clientWidth)",
            """
            String(Array.prototype.filter.call(document.querySelectorAll('td,th'),function(c){var r=c.getBoundingClientRect();
            return r.width>0&&r.width<32&&c.textContent.trim().length>2;}).length)
            """,
            "String(document.querySelectorAll('.headline li').length)",
            "String(document.querySelector('.headline').getBoundingClientRect().top < 200)",
            "String(document.getElementById('generation-route-decision').tBodies[0].rows.length)",
            "document.querySelectorAll('details').length+' '+document.querySelectorAll('details[open]').length",
            "String(document.documentElement.scrollHeight / window.innerHeight)",
            paging,
            // The tallest header row against a one-line one, every fold opened: at most two lines (a third would be ×2.4).
            """
            (function(){Array.prototype.forEach.call(document.querySelectorAll('details'),function(d){d.open=true;});
            var h=Array.prototype.map.call(document.querySelectorAll('thead tr'),function(r){return r.getBoundingClientRect().height;})
            .filter(function(x){return x>0;});return String(Math.max.apply(null,h)/Math.min.apply(null,h));})()
            """,
        ]
        let baseline = try GenerationOutput.read(Self.root.appendingPathComponent("Reports/baseline").path)
        for (width, height) in [(1280, 800), (390, 844)] {
            let shot = Self.root.appendingPathComponent(".build/report-\(width).png")
            let load = try Browser.load(out.appendingPathComponent(RunPage.file), evaluate: measures, screenshot: shot, width: width, height: height)
            #expect(load.errors.isEmpty, "console at \(width) px: \(load.errors)")
            #expect(Array(load.results.prefix(6)) == ["true", "0", "6", "true", String(baseline.routeDecisions.count), "4 0"], "at \(width) px")
            let screens = try #require(load.results[6].flatMap(Double.init))
            if width == 1280 { #expect(screens < 40, "\(screens) screens at 1280 px, folded") }
            let pages = try #require(load.results[7]?.split(separator: " ").map(String.init))
            #expect(pages.count == 4 && pages[0] == "100" && pages[1] == "100" && pages[2] == "true" && Int(pages[3]).map { $0 > 200 } == true,
                    "the misdetected list, opened: \(load.results[7] ?? "nil")")
            let headers = try #require(load.results[8].flatMap(Double.init))
            #expect(headers < 2, "the tallest header row is ×\(headers) a one-line one at \(width) px: three lines or more")
        }
    }

    /// A 100,000-item detection run (the default detection corpora repeated under new ids, the three default configs, the
    /// built-in recognizer): the page stays under 10 MB, lays out without sideways scrolling in a few screens, and its
    /// lists hold at most their 5,000-row cap, shown a page at a time, saying how many more the CSV holds.
    @Test func aHundredThousandItemRunsPageStaysSmallAndPaged() async throws {
        let directory = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var rows: [Substring] = []
        for file in ["Corpora/short-phrases.tsv", "Corpora/cyrillic-confusables.tsv"] {
            rows += try String(contentsOf: Self.root.appendingPathComponent(file), encoding: .utf8).split(separator: "\n").dropFirst()
        }
        var lines = ["id\tlang\ttext\ttags"]
        while lines.count <= 100_000 {
            for row in rows where lines.count <= 100_000 { lines.append("\(row.prefix { $0 != "\t" })-r\(lines.count / rows.count)" + row.drop { $0 != "\t" }) }
        }
        let corpusFile = directory.appendingPathComponent("large.tsv")
        try (lines.joined(separator: "\n") + "\n").write(to: corpusFile, atomically: true, encoding: .utf8)
        let supported = try ModelProfile.load(Self.root.appendingPathComponent(ModelProfile.defaultResource).path).supportedLanguages
        let out = directory.appendingPathComponent("run")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let detection = try await DetectionJob(corpus: try CorpusLoader().load([corpusFile.path]), configs: DetectionConfig.defaults(), supported: supported,
                                               factory: DetectorFactory(), directory: out, command: ["test"]).run()
        #expect(detection.items == 100_000)
        try RunPage.write(detection: detection, generation: nil, to: out, runID: "large")
        let page = out.appendingPathComponent(RunPage.file)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: page.path)[.size] as? Int)
        #expect(size <= 10_000_000, "\(size) bytes")
        let load = try Browser.load(page, evaluate: [
            "String(document.documentElement.scrollWidth <= document.documentElement.clientWidth)",
            "String(document.documentElement.scrollHeight / window.innerHeight < 40)",
            """
            (function(){var t=document.getElementById('\(MisdetectedItems.tableID)');\(Browser.unfold)
            var f=t.previousElementSibling.previousElementSibling;f.querySelector('select[data-filter=config]').value='\\u0000all';
            f.querySelector('select').dispatchEvent(new Event('change'));
            var shown=Array.prototype.filter.call(t.tBodies[0].rows,function(r){return r.getClientRects().length>0;}).length;
            return shown+' '+t.tBodies[0].rows.length+' '+t.getAttribute('data-rows');})()
            """,
        ], width: 1280, height: 800)
        #expect(load.errors.isEmpty, "console: \(load.errors)")
        #expect(Array(load.results.prefix(2)) == ["true", "true"])
        let counts = try #require(load.results[2]?.split(separator: " ").compactMap { Int($0) })
        #expect(counts.count == 3 && counts[0] == 100 && counts[1] == HTMLWriter.defaultRowCap && counts[2] > HTMLWriter.defaultRowCap,
                "misdetected rows shown, on the page, in all: \(load.results[2] ?? "nil")")
        let html = try String(contentsOf: page, encoding: .utf8)
        #expect(html.contains("Showing the first \(HTMLWriter.defaultRowCap) of \(counts[2]) rows"))
    }

    /// The hostile corpus's markers never execute: the title stays, no element the payload made exists.
    @Test func hostilePageRunsNothing() throws {
        let directory = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let page = directory.appendingPathComponent("hostile.html")
        try RunPageTests.hostilePage().write(to: page, atomically: true, encoding: .utf8)
        let load = try Browser.load(page, evaluate: [
            "document.title", "String(window.pwned)", "String(document.querySelectorAll('main img, main script, main b, #x').length)",
            "String(document.querySelectorAll('svg[onload], [onerror]').length)",
        ])
        #expect(load.results == ["LangBench run hostile", "undefined", "0", "0"])
        #expect(load.errors.isEmpty, "console: \(load.errors)")
        #expect(load.requests.isEmpty, "requests: \(load.requests)")
    }

    /// The compare page: verdict first, every link lands on a row of its item table, nothing fetched.
    @Test func comparePageLinksIntoItsItemTable() throws {
        let base = try GenerationFixtures.report("base"), current = try GenerationFixtures.report("current")
        let comparison = try Comparison(base: RunResults(path: "base", detection: nil, generation: base),
                                        current: RunResults(path: "current", detection: nil, generation: current), thresholds: .default)
        let directory = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let page = directory.appendingPathComponent("compare.html")
        try comparison.html.write(to: page, atomically: true, encoding: .utf8)
        let load = try Browser.load(page, evaluate: [
            "document.querySelector('.headline strong').textContent",
            "String(Array.prototype.filter.call(document.querySelectorAll('a[href^=\"#\"]'),function(a){return !document.getElementById(a.getAttribute('href').slice(1));}).length)",
            "String(document.querySelector('.headline').getBoundingClientRect().top < 400)",
        ])
        #expect(load.results.first == "✗ regression: \(comparison.regressions.count) check(s) regressed")
        #expect(load.results.dropFirst().map { $0 } == ["0", "true"])
        #expect(load.errors.isEmpty && load.requests.isEmpty, "\(load.errors) \(load.requests)")
    }

    /// A run with two variants: the side-by-side table's filters show the items the CSV counts, and a route
    /// or variant filter leaves only its columns.
    @Test func sideBySideFiltersShowTheItemsTheCSVCounts() throws {
        let directory = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let report = try GenerationFixtures.variants()
        try GenerationOutput.write(report, to: directory)  // generation-items.csv
        try RunPage.write(detection: nil, generation: report, to: directory)
        let all = try csv(directory.appendingPathComponent(GenerationOutput.itemsFile))
        let crisis = Set(all.filter { $0["fallback_reason"] == "crisis-protocol" }.compactMap { $0["item_id"] })
            .union(ItemTexts.load(report.provenance.corpora).crisis)
        let rows = all.filter { !crisis.contains($0["item_id"] ?? "") }
        // A variant-b row differs when its outcome, fallback reason or served differs from variant a's on the same route and repeat.
        let reference = Dictionary(rows.filter { $0["variant"] == "a" }.map { (recordKey($0), $0) }, uniquingKeysWith: { a, _ in a })
        let differs = { (row: [String: String]) -> Bool in
            guard row["variant"] == "b", let a = reference[recordKey(row)] else { return false }
            return ["outcome", "fallback_reason", "served_in_own_language"].contains { a[$0] != row[$0] }
        }
        let checks: [(expression: String, expected: String)] = [
            (Browser.sideBySide(GenerationItems.tableID), "\(items(rows)) 4"),
            (Browser.sideBySide(GenerationItems.tableID, selects: ["lang": "bg"]), "\(items(rows) { $0["lang"] == "bg" }) 4"),
            (Browser.sideBySide(GenerationItems.tableID, selects: ["variant": "b"], flags: ["fallback"]),
             "\(items(rows) { $0["variant"] == "b" && $0["outcome"] == "fallback" }) 2"),
            (Browser.sideBySide(GenerationItems.tableID, flags: ["not-served"]), "\(items(rows) { $0["served_in_own_language"] == "false" }) 4"),
            (Browser.sideBySide(GenerationItems.tableID, selects: ["route": "pivot", "variant": "a"], flags: ["not-served"]),
             "\(items(rows) { $0["route"] == "pivot" && $0["variant"] == "a" && $0["served_in_own_language"] == "false" }) 1"),
            (Browser.sideBySide(GenerationItems.tableID, flags: ["differs"]), "\(items(rows, differs)) 4"),
            (Browser.sideBySide(GenerationItems.tableID, selects: ["route": "direct"], flags: ["differs", "fallback"]),
             "\(items(rows) { $0["route"] == "direct" && $0["outcome"] == "fallback" && differs($0) }) 2"),
        ]
        let load = try Browser.load(directory.appendingPathComponent(RunPage.file), evaluate: checks.map(\.expression))
        #expect(load.results == checks.map(\.expected))
        #expect(items(rows, differs) == 7, "variant b's 8 German direct timeouts but the crisis-tagged cp-de-07, which is never shown")
        #expect(load.errors.isEmpty && load.requests.isEmpty, "\(load.errors) \(load.requests)")
    }

    /// How many items (item × repeat) have a CSV row that passes `filter`.
    func items(_ rows: [[String: String]], _ filter: ([String: String]) -> Bool = { _ in true }) -> Int {
        Set(rows.filter(filter).map { "\($0["item_id"] ?? "") \($0["repeat"] ?? "")" }).count
    }

    func recordKey(_ row: [String: String]) -> String { [row["item_id"], row["route"], row["repeat"]].map { $0 ?? "" }.joined(separator: " ") }

    /// Rows of a CSV `CSVWriter` made (LF line ends, RFC 4180 quoting) as column → text.
    func csv(_ url: URL) throws -> [[String: String]] {
        var records: [[String]] = [], record: [String] = [], field = "", quoted = false, afterQuote = false
        for character in try String(contentsOf: url, encoding: .utf8) {
            if quoted {
                if character == "\"" { quoted = false; afterQuote = true } else { field.append(character) }
            } else if character == "\"" {
                if afterQuote { field.append("\"") }
                quoted = true; afterQuote = false
            } else if character == "," {
                record.append(field); field = ""; afterQuote = false
            } else if character == "\n" {
                record.append(field); records.append(record); record = []; field = ""; afterQuote = false
            } else {
                field.append(character); afterQuote = false
            }
        }
        guard let header = records.first else { return [] }
        return records.dropFirst().map { Dictionary(zip(header, $0), uniquingKeysWith: { a, _ in a }) }
    }
}
