import BenchSupport
import Foundation

/// Measures loading a large synthetic corpus against a reference measured in the same run: reading
/// the same file's bytes and splitting them into lines. The ratio is the figure to watch; absolute
/// times on a shared machine are noise.
public struct CorpusLoadBenchmark: Sendable {
    /// One measurement, medians over the repeats.
    public struct Result: Sendable {
        public var lines: Int
        public var bytes: Int
        public var loadSeconds: Double
        public var referenceSeconds: Double
        public var ratio: Double { referenceSeconds > 0 ? loadSeconds / referenceSeconds : .nan }
    }

    public var lines: Int
    public var repeats: Int

    public init(lines: Int = 100_000, repeats: Int = 5) {
        self.lines = lines
        self.repeats = repeats
    }

    public func run(in directory: URL) throws -> Result {
        let url = directory.appendingPathComponent("bench-corpus.tsv")
        try AtomicFile.write(Self.synthetic(lines: lines), to: url)
        let clock = ContinuousClock()
        var load: [Double] = [], reference: [Double] = []
        for _ in 0..<repeats {
            reference.append(try clock.measure {
                let data = try Data(contentsOf: url)
                precondition(TextLines(data: data).lines.count == lines + 1)
            }.seconds)
            load.append(try clock.measure {
                let corpus = try CorpusLoader().load([url.path])
                precondition(corpus.items.count == lines)
            }.seconds)
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0  // size is only reported
        return Result(lines: lines, bytes: size, loadSeconds: Statistics.quantile(load, 0.5), referenceSeconds: Statistics.quantile(reference, 0.5))
    }

    /// A TSV with a header and `lines` items cycling through a few languages and lengths.
    static func synthetic(lines: Int) -> String {
        let samples = [("ru", "Привет, как прошёл твой день?"), ("uk", "Дякую, все добре"), ("en", "I can't sleep again"),
                       ("ja", "今日はとても疲れた"), ("de", "Gute Nacht und bis morgen"), ("bg", "Здравей")]
        var out = "id\tlang\ttext\ttags\n"
        out.reserveCapacity(lines * 48)
        for i in 0..<lines {
            let (lang, text) = samples[i % samples.count]
            out += "b\(i)\t\(lang)\t\(text) \(i)\tsynthetic;bench\n"
        }
        return out
    }
}
