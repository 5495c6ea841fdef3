@testable import Support
import Checks
import Foundation
import Synchronization
@testable import Generation
@testable import Suite
import TestSupport
import Testing

/// Seeded fuzzing of configuration files (thresholds, bench.json, language packs), in-process through the
/// library, raced against a watchdog (`Watchdog`): every case decodes to exactly the values it was built
/// with, or fails with its problem located in it.
struct ConfigFuzzTests {
    static let seed: UInt64 = 0x1A9_B3_4C
    static let configCases = 4_000

    @Test func malformedConfigurationsDecodeValidOrFailLocated() async throws {
        try await Watchdog.run("config", seed: Self.seed) { progress in
            var random = SplitMix64(seed: Self.seed ^ 0xC0FF_EE)
            for index in 0..<Self.configCases {
                progress.index.store(index, ordering: .relaxed)
                ConfigCase.thresholds(&random, index: index)
                ConfigCase.bench(&random, index: index)
                ConfigCase.packs(&random, index: index)
            }
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
