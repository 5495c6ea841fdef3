@testable import Support
import Foundation
@testable import Corpus
import ByteIO
import TestSupport
import Testing

/// Reading a block at a time and sorting through spool files change nothing: the same items, problems
/// and sources as reading whole files in memory, in the same canonical order.
struct ItemSpoolTests {
    static let fixtures = ["corpus/bad.tsv", "corpus/quoted.csv", "corpus/items.jsonl", "corpus/sentences.csv", "corpus/tiny.tsv", "corpus/lingua"]

    /// Every fixture read with blocks of 1, 2, 3 and 7 bytes (every line, BOM, CRLF, quoted newline and
    /// invalid UTF-8 sequence cut somewhere) equals the default read.
    @Test(arguments: fixtures)
    func tinyBlocksReadTheSame(_ name: String) throws {
        let path = Fixture.path(name)
        let whole = try CorpusLoader().read([path])
        for size in [1, 2, 3, 7] {
            var loader = CorpusLoader()
            loader.blockSize = size
            let cut = try loader.read([path])
            #expect(cut.corpus.items == whole.corpus.items, "block \(size)")
            #expect(cut.problems == whole.problems, "block \(size)")
            #expect(cut.corpus.sources == whole.corpus.sources, "block \(size)")
            #expect(cut.skippedRows == whole.skippedRows, "block \(size)")
        }
    }

    /// The SHA-256 of a file read in blocks is the file's.
    @Test func sourcesCarryTheWholeFilesHash() throws {
        let path = Fixture.path("corpus/tiny.tsv")
        var loader = CorpusLoader()
        loader.blockSize = 5
        let source = try #require(try loader.read([path]).corpus.sources.first)
        #expect(source.sha256 == SHA256.hex(try Data(contentsOf: URL(fileURLWithPath: path))))
    }

    /// Blocks hashed on the hasher's thread, however far it falls behind, give the hash of all of them in order.
    @Test(arguments: [1, 4])
    func blocksHashedBehindTheReaderGiveTheWholeHash(depth: Int) {
        var random = SplitMix64(seed: 7)
        let blocks = (0..<300).map { i in Data((0..<(i % 97)).map { _ in UInt8(truncatingIfNeeded: random.next()) }) }
        let hasher = BlockHasher(depth: depth)
        for block in blocks { hasher.update(block) }
        #expect(hasher.digest == SHA256.hex(blocks.reduce(Data(), +)))
        #expect(BlockHasher().digest == SHA256.hex(Data()))
    }

    @Test func itemsRoundTripThroughTheSpoolCoding() {
        let items = [
            CorpusItem(id: "a", lang: LanguageCode(normalised: "ru"), text: "Привет, мир 👋", tags: ["x", "greeting"],
                       history: [Turn(role: .user, text: "Hi\nthere"), Turn(role: .assistant, text: "")], source: SourceLocation(file: "f.tsv", line: 7)),
            CorpusItem(id: "", lang: LanguageCode(normalised: "zh-Hans"), text: String(repeating: "长", count: 70_000), source: SourceLocation(file: "g.jsonl", line: 1)),
        ]
        var bytes: [UInt8] = []
        for (i, item) in items.enumerated() { ItemCoding.encode(item, sequence: UInt64(i) * 1_000_000_007, file: UInt32(i), into: &bytes) }
        var offset = 0
        for (i, item) in items.enumerated() {
            let decoded = bytes.withBytes { raw -> (item: CorpusItem, sequence: UInt64) in
                let length = ItemCoding.payloadLength(raw[offset..<(offset + 4)])
                defer { offset += 4 + length }
                return ItemCoding.decode(raw[(offset + 4)..<(offset + 4 + length)], files: ["f.tsv", "g.jsonl"])
            }
            #expect(decoded.item == item)
            #expect(decoded.sequence == UInt64(i) * 1_000_000_007)
        }
        #expect(offset == bytes.count)
    }

    /// Decoding record after record with one memo (language codes and tag lists shared by equal bytes)
    /// gives each item exactly as decoding it alone does, whatever changes from one record to the next.
    @Test func decodingWithAMemoEqualsDecodingAlone() {
        let langs = ["ru", "uk", "zh-Hans", "ru"], tagLists: [Set<String>] = [[], ["a"], ["a", "b"], ["b", "a"], ["ab"], [""], []]
        var bytes: [UInt8] = [], items: [CorpusItem] = []
        for k in 0..<60 {
            let item = CorpusItem(id: "i\(k)", lang: LanguageCode(normalised: langs[k % langs.count]), text: "слово \(k)",
                                  tags: tagLists[(k / 2) % tagLists.count], source: SourceLocation(file: "f.tsv", line: k + 2))
            items.append(item)
            ItemCoding.encode(item, sequence: UInt64(k), file: 0, into: &bytes)
        }
        var memo = ItemCoding.Memo(), offset = 0
        for item in items {
            let (withMemo, alone) = bytes.withBytes { raw in
                let length = ItemCoding.payloadLength(raw[offset..<(offset + 4)])
                let payload = raw[(offset + 4)..<(offset + 4 + length)]
                defer { offset += 4 + length }
                return (ItemCoding.decode(payload, files: ["f.tsv"], memo: &memo).item, ItemCoding.decode(payload, files: ["f.tsv"]).item)
            }
            #expect(withMemo == item && alone == item)
        }
    }

    /// Merging compares records in their encoding: the same order and the same duplicates as comparing
    /// the items' ids as `String`s, also where bytes and `String`s part (canonically equivalent ids).
    @Test func spoolRecordsOrderAsItemsDo() throws {
        // Also ids that share their first 8 bytes (compared past them), and NUL bytes (as the padding of
        // a short id's prefix is).
        let ids = ["", "a", "ab", "b", "B", "a b", "é", "e\u{0301}", "f", "я", "z", "\u{1F44B}", "ﬁ",
                   "abcdefgh", "abcdefghi", "abcdefgh\u{0}", "abcdefgg~", "abcdefgh0", "ab\u{0}", "ab\u{0}\u{0}"]
        var records: [(item: CorpusItem, sequence: UInt64, record: SpoolRecord)] = []
        for (offset, id) in (ids + ids.reversed()).enumerated() {
            let item = CorpusItem(id: id, lang: LanguageCode(normalised: "ru"), text: "t", source: SourceLocation(file: "f.tsv", line: offset + 2))
            var bytes: [UInt8] = []
            ItemCoding.encode(item, sequence: UInt64(offset), file: 0, into: &bytes)
            records.append((item, UInt64(offset), SpoolRecord(bytes: bytes)))
        }
        for a in records {
            for b in records {
                #expect(a.record.isBefore(b.record) == ItemSpool.before((a.item, a.sequence), (b.item, b.sequence)), "\(a.item.id) \(b.item.id)")
                #expect(a.record.hasSameID(as: b.record) == (a.item.id == b.item.id), "\(a.item.id) \(b.item.id)")
            }
            #expect(a.record.id == a.item.id && a.record.sequence == a.sequence && a.record.source(["f.tsv"]) == a.item.source)
        }
        // A run sorted in its encoding (by the same keys, in one buffer) is in the items' canonical order.
        var run = EncodedRun()
        for entry in records { run.append(entry.item, sequence: entry.sequence, file: 0) }
        let expected = records.indices.sorted { ItemSpool.before((records[$0].item, records[$0].sequence), (records[$1].item, records[$1].sequence)) }
        #expect(run.canonicalOrder() == expected)
        #expect(run.decoded(files: ["f.tsv"]).map(\.item) == records.map(\.item))
    }

    /// A seeded corpus of 2,000 items with shuffled ids, some repeated, in two files: spooled in runs of
    /// 1, 7 and 300 items (2,000 runs, a deep merge) it equals the in-memory order, and reports the same
    /// duplicates as `read`.
    @Test(arguments: [1, 7, 300, 10_000])
    func spooledOrderAndDuplicatesEqualTheInMemoryOnes(_ itemsInMemory: Int) throws {
        let directory = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var random = SplitMix64(seed: 42)
        var paths: [String] = []
        for file in 0..<2 {
            var text = "id\tlang\ttext\ttags\n"
            for row in 0..<1_000 {
                // Ids from a small range so that about a tenth repeat (within and across files); mixed
                // lengths so that string order differs from numeric order.
                let id = "i\(random.next() % 9_000)"
                let lang = ["ru", "uk", "en"][Int(random.next() % 3)]
                text += "\(id)\t\(lang)\tслово \(file)-\(row)\t\(row % 5 == 0 ? "t\(row % 3)" : "")\n"
            }
            let url = directory.appendingPathComponent("part-\(file).tsv")
            try text.write(to: url, atomically: true, encoding: .utf8)
            paths.append(url.path)
        }
        let expected = try CorpusLoader().read(paths)
        let duplicates = expected.problems
        #expect(!duplicates.isEmpty, "the seeded corpus has duplicate ids")
        #expect(duplicates.allSatisfy { $0.message.hasPrefix("duplicate id") })
        let spool = ItemSpool(itemsInMemory: itemsInMemory, directory: directory)
        _ = try CorpusLoader().forEachItem(paths) { try spool.add($0) }
        let (sorted, found) = try spool.finish(sources: expected.corpus.sources)
        #expect(sorted.isSpooled == (itemsInMemory < 2_000))
        #expect(found.sorted { ($0.location.file, $0.location.line) < ($1.location.file, $1.location.line) } == duplicates)
        let inMemory = SortedCorpus(expected.corpus)
        #expect(sorted.count == inMemory.count)
        #expect(try sorted.allItems() == inMemory.allItems())
        // Read twice (once per config in a run) and in uneven batches: the same items.
        let cursor = try sorted.cursor()
        var again: [CorpusItem] = []
        while true {
            let batch = try cursor.next(333)
            if batch.isEmpty { break }
            again += batch
        }
        #expect(again == (try inMemory.allItems()))
    }

    /// `loadSorted` throws every problem, duplicates included, in file and line order — what `load` throws.
    @Test func loadSortedThrowsWhatLoadThrows() throws {
        let path = Fixture.path("corpus/bad.tsv")
        var thrown: [CorpusProblem] = []
        do {
            _ = try CorpusLoader().loadSorted([path], itemsInMemory: 1)
            Issue.record("bad.tsv loaded")
        } catch CorpusError.invalid(let problems) {
            thrown = problems
        }
        #expect(thrown == (try CorpusLoader().read([path]).problems))
    }

    /// A shard read sorted holds exactly the items `Shard.apply` keeps of the whole corpus, in canonical
    /// order, however small the runs; a shard that gets no item is empty, not an error.
    @Test(arguments: [1, 7, 10_000])
    func aShardLoadsSortedAsItsFilterOfTheWholeCorpus(itemsInMemory: Int) throws {
        let paths = ["Corpora/short-phrases.tsv", "Corpora/cyrillic-confusables.tsv"].map { Fixture.repository.appendingPathComponent($0).path }
        let whole = try CorpusLoader().load(paths)
        for text in ["1/3", "2/3", "3/3"] {
            let shard = try Shard(text)
            let expected = try SortedCorpus(shard.apply(whole)).allItems()
            let sorted = try CorpusLoader().loadSorted(paths, shard: shard, itemsInMemory: itemsInMemory)
            #expect(try sorted.allItems() == expected, "shard \(text)")
            #expect(sorted.count == expected.count && !expected.isEmpty)
        }
        let tiny = Fixture.path("corpus/tiny.tsv")
        let ids = try CorpusLoader().load([tiny]).items.map(\.id)
        let empty = try #require((2...50).lazy.compactMap { n in (1...n).lazy.map { try! Shard("\($0)/\(n)") }.first { shard in !ids.contains(where: shard.contains) } }.first)
        #expect(try CorpusLoader().loadSorted([tiny], shard: empty).count == 0)
    }

    /// The spool folder is scratch space: gone once the sorted corpus is.
    @Test func spoolFilesAreRemovedWithTheCorpus() throws {
        let directory = try Fixture.temporaryDirectory(), corpus = try Fixture.temporaryDirectory()
        defer { for url in [directory, corpus] { try? FileManager.default.removeItem(at: url) } }
        // Ids out of order (a corpus in order is read again from its file, not spooled).
        let path = corpus.appendingPathComponent("reversed.tsv").path
        try "id\tlang\ttext\nc\tru\tтри\nb\tru\tдва\na\tru\tодин\n".write(toFile: path, atomically: true, encoding: .utf8)
        var sorted: SortedCorpus? = try CorpusLoader().loadSorted([path], itemsInMemory: 1, spoolDirectory: directory)
        #expect(sorted?.isSpooled == true)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).count == 1)
        sorted = nil
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }
}
