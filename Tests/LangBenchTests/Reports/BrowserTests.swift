import Foundation
import Testing
import TestSupport
@testable import LangBench

/// report.html and the compare page in real headless Chromium: no console error, no request, filters
/// that show the rows the CSV counts, hostile text that runs nothing, and a screenshot for a person.
@Suite(.serialized, .enabled(if: Browser.executable != nil, "needs chromium (scripts/setup installs it)"))
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
        let supported = try ModelProfile.load(Self.root.appendingPathComponent(ModelProfile.defaultPath).path).supportedLanguages
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
        let checks: [(expression: String, expected: Int)] = [
            (Browser.filter(DetectionItems.tableID, "flip:\(last)", "fixed"), detectionRows.filter { $0["config"] == last && $0["flip"] == "fixed" }.count),
            (Browser.filter(DetectionItems.tableID, "flip:\(last)", "broken"), detectionRows.filter { $0["config"] == last && $0["flip"] == "broken" }.count),
            (Browser.filter(GenerationItems.tableID, "route", "pivot"), generationRows.filter { $0["route"] == "pivot" }.count),
            (Browser.filter(GenerationItems.tableID, "served_in_own_language", "✗ false"),
             generationRows.filter { $0["route"] == "pivot" && $0["served_in_own_language"] == "false" }.count),
            (Browser.filter(GenerationItems.tableID, "route", nil), generationRows.filter { $0["served_in_own_language"] == "false" }.count),
            (Browser.filter(GenerationItems.tableID, "served_in_own_language", nil), generationRows.count),
            (Browser.filter(GenerationItems.tableID, "outcome", "fallback"), generationRows.filter { $0["outcome"] == "fallback" }.count),
        ]
        let screenshot = Self.root.appendingPathComponent(".build/report-1280.png")
        let load = try Browser.load(page, evaluate: checks.map(\.expression), screenshot: screenshot)
        #expect(load.errors.isEmpty, "console: \(load.errors)")
        #expect(load.requests.isEmpty, "requests: \(load.requests)")
        #expect(load.results == checks.map { String($0.expected) })
        #expect(checks[0].expected + checks[1].expected > 0, "the default suite's configs differ on some items")
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
