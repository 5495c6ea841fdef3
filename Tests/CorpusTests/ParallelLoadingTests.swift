@testable import Support
import Foundation
@testable import Corpus
import TestSupport
import Testing

/// Parsing and validating blocks on worker threads changes nothing: for every format, block size and
/// number of workers, the same items, problems (same messages, lines and order), sources and skipped
/// rows as reading one block after another on one thread.
struct ParallelLoadingTests {
    enum Format: String, CaseIterable { case tsv, csv, jsonl, lines, tatoeba }

    @Test(arguments: Format.allCases)
    func parallelReadsEqualSerialOnes(_ format: Format) throws {
        let directory = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = try Self.corpus(format, rows: 600, in: directory)
        var serial = CorpusLoader()
        serial.workers = 1
        let expected = try serial.read([url.path])
        #expect(expected.problems.count >= 15, "problems spread over the file")
        #expect(expected.corpus.items.count >= 300)
        for blockSize in [1, 5, 64, 1_000, 1 << 20] {
            for workers in [2, 3, 8] {
                var loader = CorpusLoader()
                loader.blockSize = blockSize
                loader.workers = workers
                let outcome = try loader.read([url.path])
                let label = "\(format) block \(blockSize) workers \(workers)"
                #expect(outcome.corpus.items == expected.corpus.items, "\(label)")
                #expect(outcome.problems == expected.problems, "\(label)")
                #expect(outcome.corpus.sources == expected.corpus.sources, "\(label)")
                #expect(outcome.skippedRows == expected.skippedRows, "\(label)")
            }
        }
    }

    /// `loadSorted` (what `detect` uses) throws the same problems whatever the number of workers.
    @Test func loadSortedThrowsTheSameProblemsInParallel() throws {
        let directory = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = try Self.corpus(.tsv, rows: 600, in: directory)
        func problems(workers: Int) throws -> [CorpusProblem] {
            var loader = CorpusLoader()
            loader.blockSize = 97
            loader.workers = workers
            do {
                _ = try loader.loadSorted([url.path], itemsInMemory: 50, spoolDirectory: directory)
            } catch CorpusError.invalid(let problems) {
                return problems
            }
            return []
        }
        let serial = try problems(workers: 1)
        #expect(serial.contains { $0.message.hasPrefix("duplicate id") })
        #expect(try problems(workers: 3) == serial)
    }

    @Test(arguments: ["", "\u{FEFF}", "\u{FEFF}\n", "a", "a\n", "\n\n", "a\r\nb", "\u{FEFF}a\nb\n"])
    func linesAreCountedAsDecodingCountsThem(_ text: String) {
        let data = Data(text.utf8)
        for fileStart in [true, false] {
            #expect(TextLines.lineCount(of: data, fileStart: fileStart) == TextLines(data: data, fileStart: fileStart).lineCount)
        }
    }

    /// A corpus of `rows` rows in `format` with a problem about every tenth row: invalid UTF-8, an
    /// unknown code, empty text, a wrong number of cells, broken JSON, duplicate ids, blank lines.
    static func corpus(_ format: Format, rows: Int, in directory: URL) throws -> URL {
        var random = SplitMix64(seed: 7)
        let words = ["привет", "дякую", "hello", "Grüße", " здравей ", "你好", "x;y", "a b c"]
        var data = Data()
        switch format {
        case .tsv: data += Data("id\tlang\ttext\ttags\n".utf8)
        case .csv: data += Data("id,lang,text,tags\n".utf8)
        case .jsonl, .lines, .tatoeba: break
        }
        for row in 0..<rows {
            let id = "r\(random.next() % UInt64(rows * 3))"
            var lang = ["ru", "uk", "en", "rus", "zh-Hans"][Int(random.next() % 5)]
            var text = words[Int(random.next() % UInt64(words.count))]
            var line: String
            switch random.next() % 10 {
            case 0: lang = "xx"
            case 1: text = " "
            default: break
            }
            switch format {
            case .tsv: line = "\(id)\t\(lang)\t\(text)\tt\(row % 3);synthetic"
            case .csv: line = "\(id),\(lang),\"\(text)\nline two\",t\(row % 3)"
            case .jsonl: line = #"{"id":"\#(id)","lang":"\#(lang)","text":"\#(text)","tags":["t"]}"#
            case .lines: line = text
            case .tatoeba: line = "\(row)\t\(row % 7 == 0 ? "\\N" : "rus")\t\(text)"
            }
            switch row == 0 ? 19 : random.next() % 20 {  // the first row stays clean (Tatoeba is detected from it)
            case 0: line += format == .jsonl ? "}" : "\textra"
            case 1: line = ""
            case 2: line = "r\(row)"
            default: break
            }
            data += Data(line.utf8)
            if row > 0 && random.next() % 25 == 0 { data.append(0x80) }
            data += Data((row % 11 == 0 ? "\r\n" : "\n").utf8)
        }
        let name = switch format {
        case .tsv: "corpus.tsv"
        case .csv: "corpus.csv"
        case .jsonl: "corpus.jsonl"
        case .lines: "ru.txt"
        case .tatoeba: "sentences.csv"
        }
        let url = directory.appendingPathComponent(name)
        try data.write(to: url)
        return url
    }
}
