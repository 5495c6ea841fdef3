import Foundation
import Generation
import GenerationTestSupport
@testable import Suite
import TestSupport
import Testing

/// The generation drill-down of report.html: one row per item with every route × variant reply beside it.
struct SideBySideTests {
    @Test func oneRowPerItemAndOneColumnPerRouteAndVariant() throws {
        let report = try GenerationFixtures.variants()
        let table = GenerationSideBySide(report, crisis: [])
        #expect(table.columns.map(\.title) == ["direct · a", "pivot · a", "direct · b", "pivot · b"])
        #expect(table.reference == "a" && !table.repeats)
        let crisis = Set(report.records.filter { $0.fallbackReason == .crisisProtocol }.map(\.itemID))
        #expect(table.rows.count == Set(report.records.map(\.itemID)).count - crisis.count)
        #expect(table.hiddenCrisisItems == crisis.count && crisis.count > 0)
        #expect(table.rows.allSatisfy { $0.cells.count == 4 })
        // b differs from a where the current run timed out: the 8 German direct records, and only on direct.
        let differing = table.rows.flatMap { row in row.cells.values.filter { table.differs($0, in: row) }.map { "\($0.itemID) \($0.route)" } }
        #expect(differing.sorted() == (1...8).map { String(format: "cp-de-%02d direct", $0) })
    }

    @Test func cellsCarryTheFactsAndCrisisItemsOnlyACount() throws {
        let report = try GenerationFixtures.variants()
        var texts = ItemTexts(), replies: [String: String] = [:]
        for record in report.records {
            texts.texts[record.itemID] = "MESSAGE-\(record.itemID)"
            replies[record.key] = "REPLY-\(record.itemID)-\(record.route.rawValue)-\(record.variant ?? "")"
        }
        let crisis = Set(report.records.filter { $0.fallbackReason == .crisisProtocol }.map(\.itemID))
        var page = HTMLPage(title: "t")
        GenerationItems.served(&page, report: report, texts: texts)
        GenerationItems.cost(&page, report: report)
        GenerationItems.itemList(&page, report: report, replies: replies, texts: texts, crisis: [])
        let html = page.main
        for id in crisis { #expect(!html.contains("MESSAGE-\(id)") && !html.contains("REPLY-\(id)-")) }
        #expect(html.contains("\(crisis.count) crisis-flagged item(s) are counted here and never shown"))
        let row = try #require(html.components(separatedBy: "\n").first { $0.hasPrefix("<tr id=\"item-cp-de-01-0\"") })
        #expect(row.contains("MESSAGE-cp-de-01") && row.contains("REPLY-cp-de-01-pivot-b"))
        #expect(row.contains("data-route=\"direct\" data-variant=\"b\" data-outcome=\"fallback\" data-served=\"false\" data-differs=\"true\""))
        #expect(row.contains("fallback (timeout) · <span class=\"no\">✗ not served</span>") && row.contains("≠ reference"))
        #expect(row.contains("model · <span class=\"yes\">✓ served</span>") && row.contains("total "))
        #expect(row.contains("reply de <span class=\"yes\">✓ as detected</span>"), "fidelity in words, not colour only")
    }

    @Test func aRunWithoutVariantsHasNoReferenceAndRouteColumnsOnly() throws {
        let table = GenerationSideBySide(try GenerationFixtures.report("base"), crisis: [])
        #expect(table.columns.map(\.title) == ["direct", "pivot"] && table.reference == nil)
        let html = table.html(id: "g", title: "t", texts: ItemTexts(), replies: [:], rowCap: 3, overflowNote: "generation-items.csv")
        #expect(!html.contains("data-reference") && html.contains("Showing the first 3 of \(table.rows.count) items"))
    }
}
