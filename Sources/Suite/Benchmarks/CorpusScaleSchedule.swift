import Support

/// The order in which `bench corpus-scale` measures, and what each figure is set against: a block of
/// raw-speed processes before and after every detect run and around the scaling control, each run taking
/// the blocks on its two sides (the block after one run is the block before the next). What is measured is
/// injected — child processes in the CLI, scripted values in tests — so the design is tested, not its timings.
package struct CorpusScaleSchedule: Sendable {
    /// One raw-speed process: the recognizer's single-thread words/s, in wall time and per CPU second.
    package struct RawSpeed: Sendable, Equatable, Codable {
        package var wall: Double
        package var cpu: Double

        package init(wall: Double, cpu: Double) {
            self.wall = wall
            self.cpu = cpu
        }

        enum CodingKeys: String, CodingKey { case wall = "raw_words_per_second", cpu = "raw_words_per_cpu_second" }
    }

    /// One detect run as its child process measured it.
    package struct Detected: Sendable, Equatable {
        package var wallSeconds: Double
        package var cpuSeconds: Double
        package var outputBytes: Int
        /// The CPU seconds the run's detecting threads spent in the recognizer (its report's timings), when recorded.
        package var recognizerCPUSeconds: Double?

        package init(wallSeconds: Double, cpuSeconds: Double, outputBytes: Int, recognizerCPUSeconds: Double? = nil) {
            self.wallSeconds = wallSeconds
            self.cpuSeconds = cpuSeconds
            self.outputBytes = outputBytes
            self.recognizerCPUSeconds = recognizerCPUSeconds
        }
    }

    /// The measurements: a block of raw-speed processes one after another, `n` raw-speed processes at
    /// once (one words/s each), and a detect run with `jobs`.
    package struct Probes: Sendable {
        package var rawBlock: @Sendable () async throws -> [RawSpeed]
        package var rawTogether: @Sendable (_ n: Int) async throws -> [Double]
        package var detect: @Sendable (_ jobs: Int) async throws -> Detected

        package init(rawBlock: @escaping @Sendable () async throws -> [RawSpeed], rawTogether: @escaping @Sendable (Int) async throws -> [Double],
                    detect: @escaping @Sendable (Int) async throws -> Detected) {
            self.rawBlock = rawBlock
            self.rawTogether = rawTogether
            self.detect = detect
        }
    }

    /// The scaling control (`CorpusScaleBenchmark.scaling`) with what it came from.
    package struct Scaling: Sendable, Equatable {
        package var value: Double
        /// `CorpusScaleBenchmark.spread` of the single processes before and after the ones at once.
        package var spread: Double
        /// Words/s of the processes at once, in total.
        package var together: Double
        /// One process's words/s: the mean of the medians of the blocks before and after.
        package var single: Double

        package var isSteady: Bool { spread <= CorpusScaleBenchmark.steadySpread }
    }

    /// What has just been measured, for a caller that reports as the benchmark goes.
    package enum Event: Sendable {
        case scaling(Scaling)
        /// Run `run` of round `round`, with the raw speeds (wall words/s) of the two blocks around it.
        case run(round: Int, CorpusScaleBenchmark.Run, rawAround: [Double])
    }

    package var items: Int
    /// The second detect run's jobs (1: only `--jobs 1` runs, and no scaling control).
    package var jobs: Int
    package var repeats: Int

    package init(items: Int, jobs: Int, repeats: Int) {
        self.items = items
        self.jobs = jobs
        self.repeats = repeats
    }

    /// Measures everything in order; returns the runs in the order they ran and the scaling control (nil
    /// with one job).
    package func measure(_ probes: Probes, observe: (Event) -> Void = { _ in }) async throws -> (runs: [CorpusScaleBenchmark.Run], scaling: Scaling?) {
        var before = try await probes.rawBlock()
        var scaling: Scaling?
        if jobs > 1 {
            let together = try await probes.rawTogether(jobs)
            let after = try await probes.rawBlock()
            let single = Self.reference(before, after, \.wall)
            scaling = Scaling(value: CorpusScaleBenchmark.scaling(together: together, jobs: jobs, single: single),
                              spread: CorpusScaleBenchmark.spread((before + after).map(\.wall)), together: together.reduce(0, +), single: single)
            observe(.scaling(scaling!))
            before = after
        }
        var runs: [CorpusScaleBenchmark.Run] = []
        for round in 1...max(1, repeats) {
            for jobs in jobs > 1 ? [1, jobs] : [1] {
                let detected = try await probes.detect(jobs)
                let after = try await probes.rawBlock()
                let around = (before + after).map(\.wall)
                let run = CorpusScaleBenchmark.Run(jobs: jobs, items: items, wallSeconds: detected.wallSeconds, cpuSeconds: detected.cpuSeconds,
                                                   rawWordsPerSecond: Self.reference(before, after, \.wall),
                                                   rawWordsPerCPUSecond: Self.reference(before, after, \.cpu),
                                                   outputBytes: detected.outputBytes, rawSpread: CorpusScaleBenchmark.spread(around),
                                                   recognizerCPUSeconds: detected.recognizerCPUSeconds)
                observe(.run(round: round, run, rawAround: around))
                runs.append(run)
                before = after
            }
        }
        return (runs, scaling)
    }

    /// What a figure measured between two blocks is set against: the mean of their medians of `figure`
    /// (an empty block counts 0, and its spread is infinite: never steady).
    private static func reference(_ before: [RawSpeed], _ after: [RawSpeed], _ figure: KeyPath<RawSpeed, Double>) -> Double {
        func median(_ block: [RawSpeed]) -> Double { block.isEmpty ? 0 : Quantile.of(block.map { $0[keyPath: figure] }, 0.5) }
        return (median(before) + median(after)) / 2
    }
}
