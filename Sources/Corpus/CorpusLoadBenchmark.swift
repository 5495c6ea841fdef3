import Support
import Foundation
import ByteIO

/// Measures loading a large synthetic corpus against a reference measured in the same run: reading
/// the same file's bytes and splitting them into lines. The ratio is the figure to watch; absolute
/// times on a shared machine are noise. With `itemsInMemory`, the load measured is instead the read in
/// id order (`CorpusLoader.loadSorted` with that threshold, then one pass through the items): the
/// synthetic ids are not in file order, so it sorts through the spool — what the threshold costs in
/// time, beside the process's peak memory (one threshold per process).
package struct CorpusLoadBenchmark: Sendable {
    /// One measurement, medians over the repeats.
    package struct Result: Sendable {
        package var lines: Int
        package var bytes: Int
        package var loadSeconds: Double
        package var referenceSeconds: Double
        /// The process's peak resident memory after the loads (before the reference, which holds the file).
        package var peakBytes: Int?
        package var ratio: Double { referenceSeconds > 0 ? loadSeconds / referenceSeconds : .nan }
    }

    package var lines: Int
    package var repeats: Int
    package var itemsInMemory: Int?

    package init(lines: Int = 100_000, repeats: Int = 5, itemsInMemory: Int? = nil) {
        self.lines = lines
        self.repeats = repeats
        self.itemsInMemory = itemsInMemory
    }

    package func run(in directory: URL) throws -> Result {
        let url = directory.appendingPathComponent("bench-corpus.tsv")
        try Self.writeSynthetic(lines: lines, to: url)
        let clock = ContinuousClock()
        var load: [Double] = [], reference: [Double] = []
        for _ in 0..<repeats {
            load.append(try clock.measure {
                if let itemsInMemory {
                    let cursor = try CorpusLoader().loadSorted([url.path], itemsInMemory: itemsInMemory, spoolDirectory: directory).cursor()
                    var count = 0
                    while case let batch = try cursor.next(4096), !batch.isEmpty { count += batch.count }
                    precondition(count == lines)
                } else {
                    let corpus = try CorpusLoader().load([url.path])
                    precondition(corpus.items.count == lines)
                }
            }.seconds)
        }
        // Before the reference, which holds the whole file.
        let peak = SystemCall.peakResidentBytes()
        for _ in 0..<repeats {
            reference.append(try clock.measure {
                let data = try Data(contentsOf: url)
                precondition(TextLines(data: data).lines.count == lines + 1)
            }.seconds)
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0  // size is only reported
        return Result(lines: lines, bytes: size, loadSeconds: Statistics.quantile(load, 0.5), referenceSeconds: Statistics.quantile(reference, 0.5),
                      peakBytes: peak)
    }

    /// Writes a TSV with a header and `lines` items cycling through a few languages and lengths, a block
    /// at a time (the corpus is never whole in memory). Ids `b0, b1, …` are not in id order (`b10` < `b2`).
    static func writeSynthetic(lines: Int, to url: URL) throws {
        let samples = [("ru", "Привет, как прошёл твой день?"), ("uk", "Дякую, все добре"), ("en", "I can't sleep again"),
                       ("ja", "今日はとても疲れた"), ("de", "Gute Nacht und bis morgen"), ("bg", "Здравей")]
        let writer = try BufferedFileWriter(url: url, atomic: true)
        writer.append("id\tlang\ttext\ttags\n")
        for i in 0..<lines {
            let (lang, text) = samples[i % samples.count]
            writer.append("b\(i)\t\(lang)\t\(text) \(i)\tsynthetic;bench\n")
            try writer.flushIfFull()
        }
        try writer.finish()
    }
}
