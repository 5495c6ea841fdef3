import Foundation
@testable import Corpus
import TestSupport
import Testing

/// Corpora: inputs that used to load as something they are not.
struct CorpusEdgeTests {
    static func write(_ text: String, _ name: String, in directory: URL) throws -> String {
        let url = directory.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    /// The same `lines` file typed as an absolute and as a relative path gives the same ids (they used to embed the path as typed).
    @Test func linesIDsDoNotDependOnHowThePathWasTyped() throws {
        let directory = try Fixture.temporaryDirectory()
        let absolute = try Self.write("привет\nпока\n", "lines/ru.txt", in: directory)
        let relative = "lines/ru.txt"
        let previous = FileManager.default.currentDirectoryPath
        FileManager.default.changeCurrentDirectoryPath(directory.path)
        defer { FileManager.default.changeCurrentDirectoryPath(previous) }
        let a = try CorpusLoader().load([absolute]), b = try CorpusLoader().load([relative])
        let c = try CorpusLoader().load(["./lines/../lines"]), d = try CorpusLoader().load([directory.appendingPathComponent("lines").path])
        #expect(a.items.map(\.id) == ["ru.txt:1", "ru.txt:2"])
        for other in [b, c, d] { #expect(other.items.map(\.id) == a.items.map(\.id)) }
        #expect(try CorpusLoader().load([Fixture.path("corpus/lingua")]).items.first?.id == "ru/single-words.txt:1")
    }

    /// A folder reads every corpus file in it, not only `.txt`; an unknown file is refused, not skipped.
    @Test func aFolderReadsEverySupportedFileAndRefusesUnknownOnes() throws {
        let directory = try Fixture.temporaryDirectory()
        _ = try Self.write("привет\n", "ru.txt", in: directory)
        _ = try Self.write("id\tlang\ttext\ttags\nt1\tuk\tпривіт\t\n", "more.tsv", in: directory)
        _ = try Self.write(#"{"id":"j1","lang":"en","text":"hello"}"# + "\n", "more.jsonl", in: directory)
        _ = try Self.write("# notes\n", "README.md", in: directory)
        let corpus = try CorpusLoader().load([directory.path])
        #expect(corpus.items.map(\.id).sorted() == ["j1", "ru.txt:1", "t1"])
        _ = try Self.write("x", "data.xlsx", in: directory)
        #expect { try CorpusLoader().read([directory.path]) } throws: { error in
            "\(error)" == "\(directory.appendingPathComponent("data.xlsx").path): unknown corpus format; use .tsv, .csv, .jsonl, a folder of <lang>.txt files, or pass --format"
        }
    }

    @Test(arguments: [
        ("c.tsv", "id\tlang\ttext\ttags\na\tru\tпривет\tt\textra\n", "2: expected 4 columns, found 5"),
        ("c.tsv", "", "1: no items (empty file)"),
        ("c.jsonl", "\n\n", "1: no items (empty file)"),
        ("c.jsonl", "{\"id\":\"a\",\"lang\":\"ru\" \"text\":\"x\"}\n",
         "1: not a JSON object with id, lang, text (invalid JSON at column 23: expected ',' or '}' after the value of 'lang', found '\"')"),
        ("ru.txt", "  \n", "1: no items (empty file)"),
        ("c.tsv", "id\tlang\ttext\ttags\n", "1: a header but no items"),
        ("c.tsv", "id\tlang\ttext\na\tru\t\u{0}\n", "2: text has no visible character (only whitespace and control or zero-width characters such as U+0000); give it readable text"),
        ("c.tsv", "id\tlang\ttext\na\tru\t\u{200B} \u{200B}\n", "2: text has no visible character (only whitespace and control or zero-width characters such as U+200B); give it readable text"),
        ("c.jsonl", "{\"id\":\"a\",\"lang\":\"ru\",\"text\":\"\\u200b\\ufeff\"}\n", "1: text has no visible character (only whitespace and control or zero-width characters such as U+200B); give it readable text"),
        ("c.tsv", "id\tlang\ttext\na\tru\t \n", "2: empty text"),
    ])
    func rowsAndFilesThatHoldTooMuchOrNothingAreProblems(name: String, text: String, problem: String) throws {
        let path = try Self.write(text, name, in: try Fixture.temporaryDirectory())
        #expect(try CorpusLoader().read([path]).problems.map(\.description) == ["\(path):\(problem)"])
    }

    @Test func trailingEmptyCellsAreNotAProblem() throws {
        let path = try Self.write("id\tlang\ttext\ttags\na\tru\tпривет\t\t\n", "c.tsv", in: try Fixture.temporaryDirectory())
        #expect(try CorpusLoader().load([path]).items.count == 1)
    }

    @Test func anEmptyFolderIsNotACorpus() throws {
        let directory = try Fixture.temporaryDirectory()
        #expect(throws: CorpusError.self) { try CorpusLoader().load([directory.path]) }
    }

    /// A FIFO would block forever (and Foundation called it a permission problem, even to root).
    @Test func aFIFOIsRefusedAsNotARegularFile() throws {
        let path = try Fixture.temporaryDirectory().appendingPathComponent("pipe.tsv").path
        try #require(mkfifo(path, 0o600) == 0)
        #expect { try CorpusLoader().read([path]) } throws: { error in
            "\(error)" == "\(path): cannot read (a FIFO; pass a corpus file or folder)"
        }
    }
}
