import Support
import Foundation
import Corpus
import ByteIO

/// `bench corpus-scale`'s parts: a seeded synthetic corpus of N one-word items, and the figures of an
/// end-to-end `detect` over it set against the recognizer's raw words/s measured in the same run (absolute
/// speeds on a shared machine are noise; the ratio is the figure to watch).
package enum CorpusScaleBenchmark {
    /// The languages of the synthetic items, which are also `detect`'s candidates.
    package static let languages = ["ru", "uk", "bg", "en"]

    /// The single-word items of `corpus` in `languages`, as (lang, word), in corpus order.
    package static func words(from corpus: Corpus, languages: [String] = languages) -> [(lang: String, text: String)] {
        corpus.items.filter { languages.contains($0.lang.identifier) && LengthBucket.wordCount($0.text) == 1 && !$0.text.contains(where: \.isWhitespace) }
            .map { ($0.lang.identifier, $0.text) }
    }

    /// Writes a TSV of `items` rows drawn from `words` with a seeded generator (`b00000000` …), and
    /// returns its size in bytes.
    @discardableResult
    package static func writeCorpus(items: Int, seed: UInt64, words: [(lang: String, text: String)], to url: URL) throws -> Int {
        precondition(!words.isEmpty, "no words to draw from")
        var random = SplitMix64(seed: seed)
        let writer = try BufferedFileWriter(url: url, atomic: true)
        writer.append("id\tlang\ttext\ttags\n")
        var bytes = 0
        for i in 0..<items {
            let word = words[Int(random.next() % UInt64(words.count))]
            let line = "b\(String(format: "%08d", i))\t\(word.lang)\t\(word.text)\tsynthetic\n"
            bytes += line.utf8.count
            writer.append(line)
            try writer.flushIfFull()
        }
        try writer.finish()
        return bytes + 19
    }

    /// One end-to-end `detect` run.
    package struct Run: Sendable {
        package var jobs: Int
        package var items: Int
        package var wallSeconds: Double
        /// CPU seconds (user + system, all threads) the detect process used.
        package var cpuSeconds: Double
        /// The recognizer's raw single-thread words/s, measured just before and just after this run (mean).
        package var rawWordsPerSecond: Double
        /// The same per CPU second of the measuring thread.
        package var rawWordsPerCPUSecond: Double
        package var outputBytes: Int
        /// How far apart the raw-speed measurements around this run were: the fastest over the slowest,
        /// minus 1 (0 when they agree). A machine whose speed moved that much while the run was measured
        /// gives a ratio that is its drift's as much as the harness's.
        package var rawSpread: Double
        /// CPU seconds the run's detecting threads spent in the recognizer, from the run's own report (nil
        /// when it has none).
        package var recognizerCPUSeconds: Double?

        package init(jobs: Int, items: Int, wallSeconds: Double, cpuSeconds: Double, rawWordsPerSecond: Double, rawWordsPerCPUSecond: Double,
                    outputBytes: Int, rawSpread: Double = 0, recognizerCPUSeconds: Double? = nil) {
            self.jobs = jobs
            self.items = items
            self.wallSeconds = wallSeconds
            self.cpuSeconds = cpuSeconds
            self.rawWordsPerSecond = rawWordsPerSecond
            self.rawWordsPerCPUSecond = rawWordsPerCPUSecond
            self.outputBytes = outputBytes
            self.rawSpread = rawSpread
            self.recognizerCPUSeconds = recognizerCPUSeconds
        }

        /// Whether the machine held its speed around the run (`rawSpread` within `steadySpread`).
        package var isSteady: Bool { rawSpread <= CorpusScaleBenchmark.steadySpread }

        package var itemsPerSecond: Double { wallSeconds > 0 ? Double(items) / wallSeconds : 0 }
        /// End-to-end items/s per job over raw words/s on one thread: the "≥ 50% per core" target.
        package var ratioPerJob: Double { rawWordsPerSecond > 0 ? itemsPerSecond / Double(jobs) / rawWordsPerSecond : 0 }
        /// End-to-end items per CPU second over raw words per CPU second: the same efficiency, measured in
        /// CPU time, which other processes' load does not inflate the way it inflates wall time.
        package var cpuRatio: Double {
            cpuSeconds > 0 && rawWordsPerCPUSecond > 0 ? Double(items) / cpuSeconds / rawWordsPerCPUSecond : 0
        }
        package var outputBytesPerItem: Double { items > 0 ? Double(outputBytes) / Double(items) : 0 }
        /// CPU seconds per wall second: how many cores the run kept busy on average. The ratio per job is
        /// the CPU ratio × this ÷ jobs (when the raw speed's CPU and wall time agree), so with `jobs` tasks
        /// on as many cores it falls short of the CPU ratio by the cores left idle.
        package var coresBusy: Double { wallSeconds > 0 ? cpuSeconds / wallSeconds : 0 }

        /// The recognizer's share of the jobs' time: its CPU seconds in the run over wall × jobs. Both come from
        /// the run itself, so the machine's drift between the run and the raw-speed blocks does not move it;
        /// it is the ratio per job the run would show if the recognizer ran inside it at its raw speed, i.e.
        /// what the harness around the recognizer leaves to it.
        package var recognizerShare: Double? {
            recognizerCPUSeconds.flatMap { wallSeconds > 0 && jobs > 0 ? $0 / (wallSeconds * Double(jobs)) : nil }
        }

        /// The recognizer's words per CPU second inside the run over its raw words per CPU second: 1 when it
        /// runs as fast among the harness's threads as alone. `ratioPerJob` ≈ `recognizerShare` × this; unlike
        /// the share, it compares two stretches of time, so the machine's drift lands in it.
        package var recognizerSpeedInRun: Double? {
            recognizerCPUSeconds.flatMap { $0 > 0 && rawWordsPerCPUSecond > 0 ? Double(items) / $0 / rawWordsPerCPUSecond : nil }
        }
    }

    /// The largest `Run.rawSpread` of a steady run. On a quiet machine here ten raw-speed processes back to
    /// back spread over 650,000–746,000 words per CPU second (15%); in a burst of other load one measured
    /// 0.55 of the one before it.
    package static let steadySpread = 0.15

    /// The spread of raw-speed measurements (`Run.rawSpread`): the largest over the smallest, minus 1.
    package static func spread(_ measurements: [Double]) -> Double {
        guard let low = measurements.min(), let high = measurements.max(), low > 0 else { return .infinity }
        return high / low - 1
    }

    /// The runs with one `jobs` value over the benchmark's rounds: medians, and the range of the ratio
    /// per job (this machine's speed moves by ±15% within minutes, so one run's ratio is not a figure).
    /// The figures come from the steady runs (`Run.isSteady`) when there is one, else from all.
    package struct Summary: Sendable, Equatable {
        package var jobs: Int
        package var runs: Int
        /// Runs the figures come from when steady; 0 when none was (the figures are then all runs').
        package var steadyRuns: Int
        package var itemsPerSecond: Double
        package var ratioPerJob: Double
        package var ratioPerJobRange: ClosedRange<Double>
        package var cpuRatio: Double
        package var coresBusy: Double
        package var outputBytesPerItem: Double
        /// Median and range of `Run.recognizerShare` over all the runs (drift does not move it, so no run is
        /// left out); nil when a run has none.
        package var recognizerShare: Double?
        package var recognizerShareRange: ClosedRange<Double>?
        /// Median of `Run.recognizerSpeedInRun` over the same runs as the ratio's.
        package var recognizerSpeedInRun: Double?
    }

    /// One summary per `jobs` value, in the order the values first ran.
    package static func summaries(_ runs: [Run]) -> [Summary] {
        var order: [Int] = []
        for run in runs where !order.contains(run.jobs) { order.append(run.jobs) }
        return order.map { jobs in
            let all = runs.filter { $0.jobs == jobs }, steady = all.filter(\.isSteady)
            let same = steady.isEmpty ? all : steady
            let ratios = same.map(\.ratioPerJob)
            let shares = all.compactMap(\.recognizerShare), speeds = same.compactMap(\.recognizerSpeedInRun)
            let complete = shares.count == all.count
            return Summary(jobs: jobs, runs: all.count, steadyRuns: steady.count, itemsPerSecond: Quantile.of(same.map(\.itemsPerSecond), 0.5),
                           ratioPerJob: Quantile.of(ratios, 0.5), ratioPerJobRange: ratios.min()!...ratios.max()!,
                           cpuRatio: Quantile.of(same.map(\.cpuRatio), 0.5), coresBusy: Quantile.of(same.map(\.coresBusy), 0.5),
                           outputBytesPerItem: Quantile.of(same.map(\.outputBytesPerItem), 0.5),
                           recognizerShare: complete ? Quantile.of(shares, 0.5) : nil,
                           recognizerShareRange: complete ? shares.min()!...shares.max()! : nil,
                           recognizerSpeedInRun: complete && speeds.count == same.count ? Quantile.of(speeds, 0.5) : nil)
        }
    }

    /// The recognizer's own scaling on `jobs` cores: the words/s of `jobs` raw-speed processes run at once
    /// (`together`, one rate each) over `jobs` × `single` (one process alone). 1 when the cores add up; the
    /// ratio per job of a `detect --jobs N` run cannot be expected above this × its single-job share.
    package static func scaling(together: [Double], jobs: Int, single: Double) -> Double {
        jobs > 0 && single > 0 ? together.reduce(0, +) / (Double(jobs) * single) : 0
    }

    /// Bytes of every file in `directory` (the run just wrote it: an unreadable one is an error, not 0 bytes per item).
    package static func directoryBytes(_ directory: URL) throws -> Int {
        try ReportError.reading(directory) {
            try FileManager.default.contentsOfDirectory(atPath: directory.path).reduce(0) { total, name in
                total + (try FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent(name).path)[.size] as? Int ?? 0)
            }
        }
    }
}
