import Foundation
@testable import Generation
import GenerationTestSupport
@testable import Suite
import Backend
import Provenance
import TestSupport
import Testing

extension BrowserTests {
    /// The default suite's page on real records: the default detection corpora and a few items of the
    /// default chat corpus through the real llama-server and model on both routes (one of them
    /// crisis-tagged, so it must show only as a count). The page loads without a console error or a
    /// request, and the side-by-side filters show the items generation-items.csv counts.
    @Test func defaultSuitePageOnARealGenerationRun() async throws {
        let directory = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let ids: Set = ["cp-de-01", "cp-ru-01", "cp-kk-01", "cp-de-07"]
        let lines = try String(contentsOf: Self.root.appendingPathComponent("Corpora/chat-prompts.tsv"), encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: true)
        let chat = directory.appendingPathComponent("chat-subset.tsv")
        try ([lines[0]] + lines.dropFirst().filter { ids.contains(String($0.prefix { $0 != "\t" })) }).joined(separator: "\n")
            .appending("\n").write(to: chat, atomically: true, encoding: .utf8)
        let corpora = ["Corpora/short-phrases.tsv", "Corpora/cyrillic-confusables.tsv"].map { "\"\(Self.root.appendingPathComponent($0).path)\"" }
        let config = directory.appendingPathComponent("bench.json")
        // A second judge of served (a real, crude one: it calls Cyrillic Russian): the page shows the two judges' table.
        let judge = "exec:python3 " + Self.root.appendingPathComponent("Tests/DetectionTests/Fixtures/detectors/script-detector.py").path
        try """
            {"schema_version": 1, "detection": {"corpora": [\(corpora.joined(separator: ", "))], "detector": "builtin"},
             "generation": {"corpora": ["\(chat.path)"], "profile": "\(Self.root.appendingPathComponent(ModelProfile.defaultResource).path)",
                            "route": "both", "warmup": 0, "seed": 42, "judge": "\(judge)"}}
            """.write(to: config, atomically: true, encoding: .utf8)
        let server = try await TestServers.shared.server()
        let out = directory.appendingPathComponent("run")
        _ = try await SuiteRunner(config: try BenchConfig.load(config.path), server: ServerSource(url: server.baseURL), directory: out,
                                  environment: [:], command: ["langbench", "run"]).run()

        let all = try csv(out.appendingPathComponent(GenerationOutput.itemsFile))
        #expect(Set(all.compactMap { $0["item_id"] }) == ids && Set(all.compactMap { $0["route"] }) == ["direct", "pivot"])
        let generation = try GenerationOutput.read(out.path)
        let crisis = Set(all.filter { $0["fallback_reason"] == "crisis-protocol" }.compactMap { $0["item_id"] })
            .union(ItemTexts.load(generation.provenance.corpora).crisis)
        #expect(crisis.contains("cp-de-07"))
        let rows = all.filter { !crisis.contains($0["item_id"] ?? "") }
        #expect(items(rows) == 3, "the three items that are not crisis-flagged")
        let checks: [(expression: String, expected: String)] = [
            (Browser.sideBySide(GenerationItems.tableID), "\(items(rows)) 2"),
            (Browser.sideBySide(GenerationItems.tableID, selects: ["route": "pivot"]), "\(items(rows)) 1"),
            (Browser.sideBySide(GenerationItems.tableID, selects: ["lang": "de"]), "\(items(rows) { $0["lang"] == "de" }) 2"),
            (Browser.sideBySide(GenerationItems.tableID, flags: ["not-served"]), "\(items(rows) { $0["served_in_own_language"] == "false" }) 2"),
            (Browser.sideBySide(GenerationItems.tableID, flags: ["fallback"]), "\(items(rows) { $0["outcome"] == "fallback" }) 2"),
            (Browser.sideBySide(GenerationItems.tableID, selects: ["route": "direct"], flags: ["fallback"]),
             "\(items(rows) { $0["route"] == "direct" && $0["outcome"] == "fallback" }) 1"),
            ("String(document.getElementById('generation-items').tBodies[0].rows.length)", String(items(rows))),
            (Browser.filter("generation-judges", "lang", "ru"), "2"),
            (Browser.filter("generation-judges", "route", "pivot"), "1"),  // with lang still ru
        ]
        // The served funnel (the seed config, unconstrained, the oracle): each lost stage's count links to exactly its people.
        let funnel = try #require(generation.funnel)
        #expect(funnel.configs == GenerationSetup.defaultConfigNames && funnel.rows.allSatisfy { $0.stages.values.reduce(0, +) == $0.n })
        let links = zip(funnel.rows, LostItems.funnelLinks(funnel)).flatMap { row, links in
            zip(funnel.stageList, links.dropFirst(4)).compactMap { stage, link in link.map { ($0, row.stages[stage] ?? 0) } }
        }
        #expect(!links.isEmpty, "someone of kk (outside the seed's candidates) is lost")
        let follow = links.prefix(4).map { link, count in
            ("""
             (function(){var a=document.querySelector('#generation-funnel a[href='+JSON.stringify(\(String(decoding: try! JSONEncoder().encode(link), as: UTF8.self)))+']');
             if(!a){return "no link";}history.replaceState(null,"",a.getAttribute("href"));window.dispatchEvent(new HashChangeEvent("hashchange"));
             var t=document.getElementById(\(String(decoding: try! JSONEncoder().encode(LostItems.tableID), as: UTF8.self)));
             return (\(Browser.matchingRows))(t);})()
             """, String(count))
        }
        let load = try Browser.load(out.appendingPathComponent(RunPage.file), evaluate: (checks + follow).map(\.expression))
        #expect(load.errors.isEmpty, "console: \(load.errors)")
        #expect(load.requests.isEmpty, "requests: \(load.requests)")
        #expect(load.results == (checks + follow).map(\.expected))
        let page = try String(contentsOf: out.appendingPathComponent(RunPage.file), encoding: .utf8)
        #expect(!page.contains("cp-de-07") && page.contains("1 crisis-flagged item(s) are counted here and never shown"))
    }
}
