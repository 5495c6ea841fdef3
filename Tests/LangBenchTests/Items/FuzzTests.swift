@testable import BenchSupport
import Checks
import Foundation
@testable import Generation
@testable import Items
@testable import LangBench
import Synchronization
import TestSupport
import Testing

/// Seeded fuzzing of corpus and configuration files, in-process through the library. Each
/// case is a small file (≤ 24 rows) generated from the seed, so the work per case is bounded; the whole
/// run races a watchdog that fails the test with the seed and case of a hang instead of hanging. Every
/// case must load with exactly the items it was built with, or fail with problems located in it.
struct FuzzTests {
    static let seed: UInt64 = 0x1A9_B3_4C
    static let corpusCases = 10_000
    static let configCases = 4_000
    /// Far above the few seconds the cases take: only a hang reaches it.
    static let watchdogSeconds = 600

    @Test func malformedCorporaLoadExactlyOrFailLocated() async throws {
        let directory = try Fixture.temporaryDirectory()
        try await Self.withWatchdog("corpus") { progress in
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

    @Test func malformedConfigurationsDecodeValidOrFailLocated() async throws {
        try await Self.withWatchdog("config") { progress in
            var random = SplitMix64(seed: Self.seed ^ 0xC0FF_EE)
            for index in 0..<Self.configCases {
                progress.index.store(index, ordering: .relaxed)
                ConfigCase.thresholds(&random, index: index)
                ConfigCase.bench(&random, index: index)
                ConfigCase.packs(&random, index: index)
            }
        }
    }

    /// Runs `body` (synchronous work) on its own task and fails the test, naming the case, if it has not
    /// finished after `watchdogSeconds`.
    static func withWatchdog(_ name: String, _ body: @escaping @Sendable (Progress) throws -> Void) async throws {
        let progress = Progress()
        let work = Task.detached { try body(progress) }
        let finished = await withTaskGroup(of: Bool.self) { group in
            group.addTask { _ = await work.result; return true }
            group.addTask {
                try? await Task.sleep(for: .seconds(watchdogSeconds))  // try?: cancelled once the work is done
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
        #expect(finished, "\(name) fuzz case \(progress.index.load(ordering: .relaxed)) (seed \(seed)) did not finish in \(watchdogSeconds) s: a hang")
        if finished { try await work.value }
    }

    /// The case being run, for the watchdog's message.
    final class Progress: Sendable {
        let index = Atomic<Int>(0)
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

/// Generated configuration files, each decoded from data and checked against the rule it must obey.
enum ConfigCase {
    /// A JSON value for a number field: in range, out of range, the wrong type, or absent.
    static func number(_ random: inout SplitMix64, valid: ClosedRange<Double>) -> (json: String?, value: Double?) {
        switch Int.random(in: 0..<6, using: &random) {
        case 0: return (nil, nil)
        case 1: return ("\"0.5\"", nil)  // a string: a type error
        case 2: return ("-\(Double.random(in: 0.001...5, using: &random))", nil)
        case 3: return ("true", nil)  // a boolean: a type error
        default:
            let v = Double.random(in: valid, using: &random)
            return ("\(v)", v)
        }
    }

    static func object(_ fields: [(String, String?)], extra: Bool) -> String {
        let body = fields.compactMap { name, json in json.map { "\"\(name)\": \($0)" } } + (extra ? [#""surprise": 1"#] : [])
        return "{" + body.joined(separator: ", ") + "}"
    }

    static func thresholds(_ random: inout SplitMix64, index: Int) {
        let alpha = number(&random, valid: 0.001...0.999), points = number(&random, valid: 0...10)
        let extra = Int.random(in: 0..<10, using: &random) == 0
        let json = object([("alpha", alpha.json), ("fallback_points", points.json)], extra: extra)
        let path = "thresholds-\(index).json"
        // Valid exactly when every present value is in range (absent keys take the preset's) and no key is unknown.
        let alphaOK = alpha.json == nil || alpha.value != nil, pointsOK = points.json == nil || points.value != nil
        do {
            let decoded = try StrictJSON.decode(Thresholds.self, from: Data(json.utf8), path: path)
            #expect(alphaOK && pointsOK && !extra, "\(json) was accepted")
            #expect(decoded.alpha > 0 && decoded.alpha < 1 && decoded.fallbackPoints >= 0)
        } catch let error as ConfigurationError {
            #expect(!(alphaOK && pointsOK && !extra), "\(json) was refused: \(error)")
            #expect(error.description.hasPrefix(path), "\(error)")
        } catch {
            Issue.record("\(json): not a ConfigurationError: \(error)")
        }
    }

    static func bench(_ random: inout SplitMix64, index: Int) {
        func int(_ range: ClosedRange<Int>) -> (String?, Bool) {
            switch Int.random(in: 0..<5, using: &random) {
            case 0: return (nil, true)
            case 1: return ("\(range.lowerBound - Int.random(in: 1...100, using: &random))", false)
            case 2: return ("\(range.upperBound + Int.random(in: 1...100, using: &random))", false)
            default: return ("\(Int.random(in: range, using: &random))", true)
            }
        }
        let concurrency = int(GenerationPlan.concurrencyRange), repeats = int(GenerationPlan.repeatsRange), warmup = int(GenerationPlan.warmupRange)
        let emptyCorpora = Int.random(in: 0..<8, using: &random) == 0
        let generation = object([("corpora", emptyCorpora ? "[]" : #"["c.tsv"]"#), ("concurrency", concurrency.0), ("repeat", repeats.0), ("warmup", warmup.0)], extra: false)
        let json = #"{"generation": \#(generation)}"#
        let valid = concurrency.1 && repeats.1 && warmup.1 && !emptyCorpora
        let path = "bench-\(index).json"
        do {
            let decoded = try StrictJSON.decode(BenchConfig.self, from: Data(json.utf8), path: path)
            #expect(valid, "\(json) was accepted")
            if let generation = decoded.generation {
                #expect(GenerationPlan.concurrencyRange.contains(generation.concurrency) && GenerationPlan.repeatsRange.contains(generation.repeats))
            }
        } catch let error as ConfigurationError {
            #expect(!valid, "\(json) was refused: \(error)")
            #expect(error.description.hasPrefix("\(path) (generation"), "\(error)")
        } catch {
            Issue.record("\(json): not a ConfigurationError: \(error)")
        }
    }

    static func packs(_ random: inout SplitMix64, index: Int) {
        let sources = ["kk", "KK", "kk_", "zh-Hans", "sr-Latn", "xx", "", "ru-RU", "en"]
        let a = sources.randomElement(using: &random)!, b = sources.randomElement(using: &random)!
        let key = Int.random(in: 0..<4, using: &random) == 0 ? "\(a)_\(b)" : "\(a)-\(b)"
        let json = #"{"pairs": {"\#(key)": "supported"}}"#
        let path = "packs-\(index).json"
        do {
            let packs = try StrictJSON.decode(LanguagePacks.self, from: Data(json.utf8), path: path)
            // Accepted only when the key is one `state(from:to:)` looks up.
            #expect(LanguagePacks.spellings(key).contains(key), "\(key) was accepted")
            #expect(packs.pairs[key] == .supported)
        } catch let error as ConfigurationError {
            #expect(!LanguagePacks.spellings(key).contains(key), "\(key) was refused: \(error)")
            #expect(error.description.hasPrefix(path))
        } catch {
            Issue.record("\(json): not a ConfigurationError: \(error)")
        }
    }
}
