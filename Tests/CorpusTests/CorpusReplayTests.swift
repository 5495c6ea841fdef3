import Foundation
@testable import Corpus
import TestSupport
import Testing

/// A corpus whose ids already increase in file order is read again from its files instead of spooled
/// (`CorpusReplay`): the same items in the same order as the in-memory read, no spool folder; an order
/// that breaks (after the first read checked ids only) falls back to the spool; a file changed after it
/// was checked stops the read with an error naming it.
struct CorpusReplayTests {
    /// The corpus of `ReplayCorpus.write`.
    static func corpus(in directory: URL, items: Int = 1_000, stepBackAt: Int? = nil, repeatAt: Int? = nil) throws -> [String] {
        try ReplayCorpus.write(in: directory, items: items, stepBackAt: stepBackAt, repeatAt: repeatAt)
    }

    static func loader(blockSize: Int = 97) -> CorpusLoader {
        var loader = CorpusLoader()
        loader.blockSize = blockSize  // blocks that cut lines
        return loader
    }

    static func readAll(_ corpus: SortedCorpus, batch: Int) throws -> [CorpusItem] {
        let cursor = try corpus.cursor()
        var items: [CorpusItem] = []
        while case let next = try cursor.next(batch), !next.isEmpty { items += next }
        return items
    }

    @Test func aCorpusInOrderIsReadAgainNotSpooled() throws {
        let directory = try Fixture.temporaryDirectory(), spool = try Fixture.temporaryDirectory()
        defer { for url in [directory, spool] { try? FileManager.default.removeItem(at: url) } }
        let paths = try Self.corpus(in: directory)
        let expected = try CorpusLoader().load(paths)
        for blockSize in [1, 97, 1 << 20] {
            let sorted = try Self.loader(blockSize: blockSize).loadSorted(paths, itemsInMemory: 100, spoolDirectory: spool)
            #expect(sorted.isReplayed && !sorted.isSpooled, "block \(blockSize)")
            #expect(sorted.count == expected.items.count)
            #expect(try sorted.sources == expected.sources, "hashed when asked, before any read")
            // Read twice, as a run with two configs does, in batches that cut blocks and files unevenly.
            #expect(try Self.readAll(sorted, batch: 333) == expected.items, "block \(blockSize)")
            #expect(try Self.readAll(sorted, batch: 7) == expected.items, "block \(blockSize)")
            #expect(try sorted.sources == expected.sources, "hashed by the first read")
            // Asked for exactly its items (as a run asks), a fresh corpus's files are read to their ends and
            // hashed by that read.
            let exact = try Self.loader(blockSize: blockSize).loadSorted(paths, itemsInMemory: 100, spoolDirectory: spool)
            let cursor = try exact.cursor()
            #expect(Array(try cursor.next(expected.items.count)) == expected.items)
            #expect(expected.sources.allSatisfy { exact.replayDigest($0.path) == $0.sha256 }, "block \(blockSize)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: spool.path).isEmpty, "no spool folder")
        // Small enough to stay in memory: not read again.
        let small = try Self.loader().loadSorted(paths, itemsInMemory: 5_000)
        #expect(!small.isReplayed && !small.isSpooled)
        #expect(try small.allItems() == expected.items)
    }

    /// The order breaks only past the first 100 items: the corpus is read again into the spool, and comes
    /// out as the in-memory read sorts it — or, with a repeated id, throws what `read` reports.
    @Test func anOrderBrokenLateFallsBackToTheSpool() throws {
        let directory = try Fixture.temporaryDirectory(), spool = try Fixture.temporaryDirectory()
        defer { for url in [directory, spool] { try? FileManager.default.removeItem(at: url) } }
        for stepBack in [101, 250, 501, 999] {
            let paths = try Self.corpus(in: directory, stepBackAt: stepBack)
            let sorted = try Self.loader().loadSorted(paths, itemsInMemory: 100, spoolDirectory: spool)
            #expect(sorted.isSpooled && !sorted.isReplayed, "step back at \(stepBack)")
            #expect(try sorted.allItems() == SortedCorpus(try CorpusLoader().load(paths)).allItems(), "step back at \(stepBack)")
        }
        let paths = try Self.corpus(in: directory, repeatAt: 900)
        let expected = try CorpusLoader().read(paths).problems
        #expect(expected.count == 1 && expected[0].message.hasPrefix("duplicate id"))
        #expect(throws: CorpusError.self) { _ = try Self.loader().loadSorted(paths, itemsInMemory: 100, spoolDirectory: spool) }
        do {
            _ = try Self.loader().loadSorted(paths, itemsInMemory: 100, spoolDirectory: spool)
        } catch CorpusError.invalid(let problems) {
            #expect(problems == expected)
        }
    }

    /// A corpus in order with problems (the first read checks rows for their ids' order only,
    /// `ItemSink.ids`): `loadSorted` throws what `read` reports, in blocks that cut lines or not, on one
    /// thread or several.
    @Test func problemsPastADroppedRunAreWhatReadReports() throws {
        let directory = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var rows = (0..<600).map { Data(String(format: "i%05d\t%@\tслово\tt", $0, ["ru", "uk"][$0 % 2]).utf8) }
        rows[150] = Data("i00150\txx\tслово\tt".utf8)  // unknown code
        rows[250] = Data("i00250\tru\t \tt".utf8)  // empty text
        rows[350] = Data("i00350\tru\tслово\tt\textra".utf8)  // a cell too many
        rows[450] = Data("i00450\tru\tсл".utf8) + Data([0xD0]) + Data("\tt".utf8)  // invalid UTF-8
        rows[500] = Data()  // a blank line: no problem
        let url = directory.appendingPathComponent("c.tsv")
        try (Data("id\tlang\ttext\ttags\n".utf8) + rows.reduce(Data()) { $0 + $1 + Data([0x0A]) }).write(to: url)
        let expected = try CorpusLoader().read([url.path]).problems
        #expect(expected.count == 4)
        for blockSize in [97, 1 << 20] {
            for workers in [1, 3] {
                var loader = Self.loader(blockSize: blockSize)
                loader.workers = workers
                do {
                    _ = try loader.loadSorted([url.path], itemsInMemory: 100, spoolDirectory: directory)
                    Issue.record("no problems thrown (block \(blockSize), \(workers) workers)")
                } catch CorpusError.invalid(let problems) {
                    #expect(problems == expected, "block \(blockSize), \(workers) workers")
                }
            }
        }
    }

    /// A file appended to, or rewritten at the same size, after the check: the next read names it.
    @Test(arguments: ["appended", "rewritten"])
    func aFileChangedAfterTheCheckIsAnError(_ change: String) throws {
        let directory = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let paths = try Self.corpus(in: directory)
        let sorted = try Self.loader().loadSorted(paths, itemsInMemory: 100)
        try #require(sorted.isReplayed)
        let url = URL(fileURLWithPath: paths[1])
        var text = try String(contentsOf: url, encoding: .utf8)
        let stamp = try CorpusReplay.Stamp(path: url.path)
        if change == "appended" {
            text += #"{"id":"i99999","lang":"ru","text":"ещё","tags":[]}"# + "\n"
        } else {
            text = text.replacingOccurrences(of: "дума 999", with: "дума 998")
        }
        try text.write(to: url, atomically: false, encoding: .utf8)
        // A rewrite within the same clock tick keeps the time on some file systems: step it on.
        try FileManager.default.setAttributes([.modificationDate: stamp.modified.addingTimeInterval(2)], ofItemAtPath: url.path)
        do {
            _ = try sorted.allItems()
            Issue.record("a changed file was read")
        } catch CorpusError.unreadable(let path, let reason) {
            #expect(path == url.path)
            #expect(reason.contains("changed while being read"), "\(reason)")
        }
    }
}
