import Foundation

/// Speed and footprint measurements of a detector, returned as values (the CLI prints them). Never used
/// from unit tests: timings belong to `langbench bench detector`, not to pass/fail checks.
public enum DetectorBenchmark {
    /// Throughput of one detector over a list of texts on the calling thread.
    public struct Throughput: Sendable, Equatable {
        /// Texts identified (the list repeated as often as needed to fill the minimum duration).
        public var texts: Int
        public var seconds: Double
        public var textsPerSecond: Double { seconds > 0 ? Double(texts) / seconds : 0 }
    }

    /// A model load: time and resident memory it added.
    public struct Load: Sendable {
        public var model: LanguageModel
        public var milliseconds: Double
        /// Growth of the process's resident set across the load, or nil where it cannot be read.
        public var residentBytes: Int?
    }

    /// Loads a model file, timing it and measuring the resident memory it adds.
    public static func load(contentsOf url: URL) throws -> Load {
        let before = residentMemoryBytes()
        let start = DispatchTime.now().uptimeNanoseconds
        let model = try LanguageModel(contentsOf: url)
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
        let after = residentMemoryBytes()
        let growth = before.flatMap { b in after.map { max(0, $0 - b) } }
        return Load(model: model, milliseconds: elapsed, residentBytes: growth)
    }

    /// Runs `identify` over `texts` repeatedly until at least `minimumSeconds` have passed (after one
    /// warm-up pass) and returns how many texts per second it managed.
    public static func throughput(texts: [String], minimumSeconds: Double = 1,
                                  identify: (String) -> String?) -> Throughput {
        guard !texts.isEmpty else { return Throughput(texts: 0, seconds: 0) }
        var sink = 0
        for text in texts { sink &+= identify(text)?.utf8.count ?? 0 }
        var count = 0
        let start = DispatchTime.now().uptimeNanoseconds
        var elapsed = 0.0
        repeat {
            for text in texts { sink &+= identify(text)?.utf8.count ?? 0 }
            count += texts.count
            elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        } while elapsed < minimumSeconds
        blackHole(sink)
        return Throughput(texts: count, seconds: elapsed)
    }

    /// Throughput of two detectors on the same texts, measured in interleaved blocks in ABBA order
    /// (A B, then B A, …) so that drift and warm-up land on both; one rate per detector and block.
    public static func pairedThroughput(texts: [String], pairs: Int = 6, secondsPerBlock: Double = 0.5,
                                        a: (String) -> String?, b: (String) -> String?) -> (a: [Double], b: [Double]) {
        var rateA: [Double] = [], rateB: [Double] = []
        for i in 0..<pairs {
            for first in [i % 2 == 0, i % 2 != 0] {
                if first {
                    rateA.append(throughput(texts: texts, minimumSeconds: secondsPerBlock, identify: a).textsPerSecond)
                } else {
                    rateB.append(throughput(texts: texts, minimumSeconds: secondsPerBlock, identify: b).textsPerSecond)
                }
            }
        }
        return (rateA, rateB)
    }

    /// The process's resident set size (Linux `/proc/self/statm`; nil elsewhere).
    public static func residentMemoryBytes() -> Int? {
        #if os(Linux)
        guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
        let fields = statm.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
        #else
        return nil
        #endif
    }

    @inline(never)
    private static func blackHole(_ value: Int) {
        if value == Int.min { print("") }
    }
}
