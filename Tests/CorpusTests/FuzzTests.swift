@testable import Support
import Foundation
import Synchronization
@testable import Corpus
import TestSupport
import Testing

/// Seeded fuzzing of corpus files, in-process through the library. Each case is a small file (≤ 24 rows)
/// generated from the seed, so the work per case is bounded; the whole run races a watchdog
/// (`Watchdog`) that fails the test with the seed and case of a hang instead of hanging. Every case must
/// load with exactly the items it was built with, or fail with problems located in it.
struct FuzzTests {
    static let seed: UInt64 = 0x1A9_B3_4C
    static let corpusCases = 10_000

    @Test(.needs(.simulation)) func malformedCorporaLoadExactlyOrFailLocated() async throws {
        let directory = try Fixture.temporaryDirectory()
        try await Watchdog.run("corpus", seed: Self.seed) { progress in
            var random = SplitMix64(seed: Self.seed)
            for index in 0..<Self.corpusCases {
                progress.index.store(index, ordering: .relaxed)
                let generated = CorpusCase.make(&random, index: index)
                let url = directory.appendingPathComponent(generated.name)
                try generated.data.write(to: url)
                let outcome = try CorpusLoader().read([url.path])
                generated.check(outcome, path: url.path)
                try FileManager.default.removeItem(at: url)
            }
        }
    }

}

/// One generated corpus file: valid rows, then at most one mutation whose effect is known.
struct CorpusCase {
    enum Format: CaseIterable { case tsv, csv, jsonl, lines }
    /// What the mutation does to the file's outcome.
    enum Expectation {
        /// Loads with exactly this many items and no problem.
        case items(Int)
        /// Has a problem at this line (and maybe others).
        case problemAt(Int)
        /// Has at least one problem, each located in the file.
        case someProblem
    }

    var name: String
    var data: Data
    var expectation: Expectation

    static let codes = ["ru", "uk", "en", "de", "kk", "sr-Latn", "zh-Hans", "ja", "bg", "fr"]
    static let words = ["привет", "дякую", "hello", "Grüße", "сәлем", "zdravo", "你好", "こんにちは", "здравей", "bonjour", "a, \"b\"", "x;y"]

    static func make(_ random: inout SplitMix64, index: Int) -> CorpusCase {
        let format = Format.allCases.randomElement(using: &random)!
        let count = Int.random(in: 1...24, using: &random)
        let lang = codes.randomElement(using: &random)!
        var rows: [String] = []
        for i in 0..<count {
            let text = (0..<Int.random(in: 1...4, using: &random)).map { _ in words.randomElement(using: &random)! }.joined(separator: " ")
            rows.append(row(format, id: "i\(index)-\(i)", lang: codes.randomElement(using: &random)!, text: text))
        }
        let header: [String] = switch format {
        case .tsv: ["id\tlang\ttext\ttags"]
        case .csv: ["id,lang,text,tags"]
        case .jsonl, .lines: []
        }
        // Line numbers are 1-based and count the header.
        let first = header.count + 1
        var expectation = Expectation.items(count)
        var lines = header + rows
        var prefix = Data(), newline = "\n", invalidLine: Int?
        let target = Int.random(in: 0..<count, using: &random)
        let line = first + target
        switch Int.random(in: 0..<12, using: &random) {
        case 0: break  // clean
        case 1: prefix = Data([0xEF, 0xBB, 0xBF])  // a BOM: accepted
        case 2: newline = "\r\n"  // CRLF: accepted
        case 3: lines += ["", ""]  // trailing blank lines: ignored
        case 4:  // an unknown language code
            guard format != .lines else { break }
            lines[line - 1] = row(format, id: "bad-\(target)", lang: "xx", text: "text")
            expectation = .problemAt(line)
        case 5:  // empty text
            lines[line - 1] = format == .lines ? lines[line - 1] : row(format, id: "e-\(target)", lang: "ru", text: "")
            if format != .lines { expectation = .problemAt(line) }
        case 6:  // a duplicate id: the later row is the problem
            guard count > 1, format != .lines else { break }
            let later = max(target, 1)
            lines[first + later - 1] = row(format, id: "i\(index)-0", lang: "ru", text: "дубль")
            expectation = .problemAt(first + later)
        case 7:  // invalid UTF-8 in a row (a lone continuation byte)
            invalidLine = line
            expectation = .problemAt(line)
        case 8:  // a cell too many (non-empty) or a broken JSON object
            switch format {
            case .tsv: lines[line - 1] += "\textra"; expectation = .problemAt(line)
            case .csv: lines[line - 1] += ",extra"; expectation = .problemAt(line)
            case .jsonl: lines[line - 1] = String(lines[line - 1].dropLast()); expectation = .problemAt(line)
            case .lines: break
            }
        case 9:  // a cell too few
            switch format {
            case .tsv, .csv: lines[line - 1] = "only-an-id"; expectation = .problemAt(line)
            case .jsonl: lines[line - 1] = #"{"id":"x"}"#; expectation = .problemAt(line)
            case .lines: break
            }
        case 10:  // overlong text
            let long = String(repeating: "я", count: CorpusLimits.maxTextLength + 1)
            lines[line - 1] = format == .lines ? long : row(format, id: "long-\(target)", lang: "ru", text: long)
            expectation = .problemAt(line)
        default:  // random bytes in a random place: no crash, and any problem is located
            var bytes = Array(lines[line - 1].utf8)
            for _ in 0..<Int.random(in: 1...6, using: &random) {
                bytes.insert(UInt8.random(in: 0...255, using: &random), at: Int.random(in: 0...bytes.count, using: &random))
            }
            lines[line - 1] = String(decoding: bytes, as: UTF8.self)
            expectation = .someProblem
        }
        var data = prefix
        for (offset, text) in lines.enumerated() {
            data += Data(text.utf8)
            if offset + 1 == invalidLine { data.append(0x80) }
            data += Data(newline.utf8)
        }
        let name = switch format {
        case .tsv: "case\(index).tsv"
        case .csv: "case\(index).csv"
        case .jsonl: "case\(index).jsonl"
        case .lines: "\(lang).txt"
        }
        return CorpusCase(name: name, data: data, expectation: expectation)
    }

    static func row(_ format: Format, id: String, lang: String, text: String) -> String {
        switch format {
        case .tsv: return "\(id)\t\(lang)\t\(text)\t"
        case .csv: return "\(id),\(lang),\"\(text.replacingOccurrences(of: "\"", with: "\"\""))\","
        case .jsonl:
            let object = ["id": id, "lang": lang, "text": text]
            return String(decoding: try! JSONSerialization.data(withJSONObject: object, options: .sortedKeys), as: UTF8.self)
        case .lines: return text
        }
    }

    func check(_ outcome: CorpusLoader.Outcome, path: String) {
        let located = outcome.problems.allSatisfy { $0.location.file == path && $0.location.line >= 1 }
        #expect(located, "\(path): an unlocated problem: \(outcome.problems.prefix(3))")
        switch expectation {
        case .items(let n):
            #expect(outcome.problems.isEmpty && outcome.corpus.items.count == n,
                    "\(path): expected \(n) items, got \(outcome.corpus.items.count) and \(outcome.problems.prefix(3))")
        case .problemAt(let line):
            #expect(outcome.problems.contains { $0.location.line == line }, "\(path): expected a problem at line \(line), got \(outcome.problems.prefix(3))")
        case .someProblem:
            // Random bytes may still form a valid row; what must hold is: no crash, and located problems.
            break
        }
    }
}

