@testable import Support
import Foundation
@testable import Corpus
import TestSupport
import Testing

/// The order of ids kept without a `String` per id: a TSV block read for ids only (`PlainTSVRows`,
/// ASCII ids compared on their bytes, others as `String`s) gives the `IDRun` of its ids as `String`s
/// compare them — also where byte order and `String` order part (text that is not NFC, canonically
/// equivalent spellings) — and runs added block by block equal the run of all ids. `loadSorted` keeps
/// a corpus in order as such and sorts one that is not, as the in-memory read does.
struct IDRunTests {
    /// Ids with ASCII at both ends (so plain rows) and a middle where orders part: U+212B (Å, whose NFC
    /// is U+00C5) sorts as U+00C5 before U+00D0 though its bytes are greater; "é" has two spellings.
    static let ids = ["a", "a0", "a00", "ab", "b", "b0", "x\u{212B}x", "x\u{00C5}x", "x\u{00D0}x", "x\u{00E9}x", "xe\u{0301}x",
                      "x\u{0436}x", "x\u{1F600}x", "x\u{FB00}x", "xa", "xz", "~"]

    @Test func blocksOfIDsGiveTheirStringOrder() throws {
        var random = SplitMix64(seed: 21)
        var reader = RecordReader(file: CorpusFile(path: "f.tsv"), format: .tsv)
        _ = reader.read(TextLines(data: Data("id\tlang\ttext\n".utf8)).lines)
        let layout = try #require(reader.tsvLayout)
        var increasing = 0
        for round in 0..<4_000 {
            // Mostly increasing runs (sorted draws), some not; now and then a blank line.
            var draws = (0..<(1 + random.next() % 5)).map { _ in Self.ids[Int(random.next() % UInt64(Self.ids.count))] }
            if round % 2 == 0 { draws.sort() }
            var text = ""
            for id in draws { text += (random.next() % 10 == 0 ? "\n" : "") + "\(id)\tru\tслово\n" }
            let block = LineBlock(data: Data(text.utf8), firstLine: 2, fileStart: false)
            let run = try #require(PlainTSVRows.read(block, path: "f.tsv", layout: layout, codes: [:], onlyIDs: true))
            #expect(run.ids == IDRun(draws), "\(draws.map { Array($0.unicodeScalars) })")
            if run.ids.isIncreasing { increasing += 1 }
        }
        #expect(increasing > 1_000)
    }

    @Test func runsAddedBlockByBlockEqualTheWholeRun() {
        var random = SplitMix64(seed: 5)
        for round in 0..<2_000 {
            var ids = (0..<(random.next() % 8)).map { _ in Self.ids[Int(random.next() % UInt64(Self.ids.count))] }
            if round % 2 == 0 { ids.sort() }
            var joined = IDRun()
            var rest = ids[...]
            while !rest.isEmpty || random.next() % 4 == 0 {  // empty pieces too
                let piece = rest.prefix(Int(random.next() % 3))
                rest = rest.dropFirst(piece.count)
                joined.append(IDRun(Array(piece)))
            }
            let whole = IDRun(ids)
            #expect(joined == whole, "\(ids)")
            #expect(whole.isIncreasing == zip(ids, ids.dropFirst()).allSatisfy { $0 < $1 })
        }
    }

    /// Files whose ids are in `String` order but not in byte order, and the reverse: `loadSorted` gives
    /// the items that sorting the in-memory read gives, replayed only when the `String` order holds.
    @Test(arguments: [true, false])
    func loadSortedFollowsStringOrder(_ stringOrder: Bool) throws {
        let directory = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // "x\u{212B}…" < "x\u{00D0}…" as Strings; as bytes the other way round.
        let pairs = stringOrder ? ["x\u{212B}", "x\u{00D0}"] : ["x\u{00D0}", "x\u{212B}"]
        let ids = (0..<300).flatMap { k in pairs.map { String(format: "%04d", k) + $0 + "x" } }
        let rows = ids.map { "\($0)\tru\tслово" }.joined(separator: "\n")
        let url = directory.appendingPathComponent("c.tsv")
        try ("id\tlang\ttext\n" + rows + "\n").write(to: url, atomically: true, encoding: .utf8)
        var loader = CorpusLoader()
        loader.blockSize = 97
        let sorted = try loader.loadSorted([url.path], itemsInMemory: 100, spoolDirectory: directory)
        #expect(sorted.isReplayed == stringOrder && sorted.isSpooled == !stringOrder)
        #expect(try sorted.allItems() == SortedCorpus(try CorpusLoader().load([url.path])).allItems())
    }
}
