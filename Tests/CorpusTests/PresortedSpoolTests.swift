import Foundation
@testable import Corpus
import TestSupport
import Testing

/// The spool's sort and merge over ids in order or nearly so (a repeated id or a step back, inside a run
/// or at a run boundary): the items, their order and the duplicates reported are those of the in-memory
/// read. `loadSorted` reads a corpus in order again from its files instead.
struct PresortedSpoolTests {
    /// Ids in file order, named by what they test.
    static let cases: [(name: String, ids: [String])] = {
        let increasing = (0..<30).map { String(format: "i%02d", $0) }
        var repeated = increasing
        repeated.insert("i13", at: 14)  // with runs of 7: the first item of the third run repeats the last of the second
        var repeatedInside = increasing
        repeatedInside.insert("i03", at: 4)
        var stepBack = increasing
        stepBack.swapAt(13, 14)  // with runs of 7: the last of the second run is after the first of the third
        var repeatedAtEnd = increasing
        repeatedAtEnd.append("i00")
        // Equal as `String`s, different in bytes: a duplicate, so not in order.
        let equivalent = ["a", "b", "e\u{0301}", "é", "f"]
        // In order as `String`s compare, with ids beyond ASCII.
        let unicode = ["a", "ab", "b", "é", "я", "\u{1F44B}"]
        return [("increasing", increasing), ("repeated at a run boundary", repeated), ("repeated inside a run", repeatedInside),
                ("step back at a run boundary", stepBack), ("repeated at the end", repeatedAtEnd),
                ("canonically equivalent ids", equivalent), ("unicode ids in order", unicode), ("one item", ["x"])]
    }()

    @Test(arguments: cases.indices)
    func spooledEqualsInMemory(_ index: Int) throws {
        let (name, ids) = Self.cases[index]
        let directory = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("ids.tsv")
        let rows = ids.enumerated().map { "\($0.element)\tru\tслово \($0.offset)\tt\($0.offset % 2)" }
        try (["id\tlang\ttext\ttags"] + rows).joined(separator: "\n").appending("\n").write(to: url, atomically: true, encoding: .utf8)
        let expected = try CorpusLoader().read([url.path])
        let inMemory = try SortedCorpus(expected.corpus).allItems()
        for itemsInMemory in [1, 2, 3, 7, 100] {
            let spool = ItemSpool(itemsInMemory: itemsInMemory, directory: directory)
            _ = try CorpusLoader().forEachItem([url.path]) { try spool.add($0) }
            let (sorted, duplicates) = try spool.finish(sources: expected.corpus.sources)
            #expect(duplicates.sorted { $0.location.line < $1.location.line } == expected.problems, "\(name), runs of \(itemsInMemory)")
            #expect(sorted.count == inMemory.count, "\(name), runs of \(itemsInMemory)")
            #expect(try sorted.allItems() == inMemory, "\(name), runs of \(itemsInMemory)")
            // Twice, in batches that cut runs unevenly: the same items.
            let cursor = try sorted.cursor()
            var again: [CorpusItem] = []
            while case let batch = try cursor.next(5), !batch.isEmpty { again += batch }
            #expect(again == inMemory, "\(name), runs of \(itemsInMemory)")
            if sorted.isSpooled {
                let files = try Self.spoolFiles(in: directory)
                #expect(files == ["items.spool"], "the runs are merged into one file: \(name), runs of \(itemsInMemory): \(files)")
            } else {
                #expect(itemsInMemory >= ids.count, "\(name), runs of \(itemsInMemory)")
            }
        }
    }

    /// `loadSorted` of a corpus in order reports nothing and reads back every item, in file order.
    @Test func loadSortedOfACorpusInOrderKeepsFileOrder() throws {
        let path = Fixture.path("corpus/tiny.tsv")
        let items = try CorpusLoader().load([path]).items
        try #require(zip(items, items.dropFirst()).allSatisfy { $0.id < $1.id }, "tiny.tsv is in id order")
        #expect(try CorpusLoader().loadSorted([path], itemsInMemory: 2).allItems() == items)
    }

    /// The files of the one spool folder inside `directory`.
    private static func spoolFiles(in directory: URL) throws -> [String] {
        let folders = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix(".langbench-spool-") }
        return try folders.flatMap { try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent($0).path) }
    }
}
