import Foundation

extension CorpusScaleBenchmark {
    /// What `bench corpus-scale` prints, each part ending in a newline; the last line is machine-readable.
    package enum Text {
        package static func corpus(items: Int, seed: Int, distinctWords: Int, bytes: Int) -> String {
            String(format: "corpus: %d one-word items (seed %d, %d distinct words), %.1f MB\n", items, seed, distinctWords, Double(bytes) / 1_000_000)
        }

        /// A measurement as the schedule reports it, for a run of `jobs` jobs.
        package static func event(_ event: CorpusScaleSchedule.Event, jobs: Int) -> String {
            switch event {
            case .scaling(let scaling):
                return String(format: "raw recognizer, %d processes at once: %.0f words/s in total, scaling %.2f of %d × one thread's %.0f (raw spread around it %.0f%%: %@)\n",
                              jobs, scaling.together, scaling.value, jobs, scaling.single, scaling.spread * 100,
                              scaling.isSteady ? "steady" : "unsteady, the scaling is the drift's as much as the machine's")
            case .run(let round, let run, let around):
                var text = String(format: "round %d, detect --jobs %d: %.2f s wall, %.0f items/s; raw recognizer %.0f words/s (1 thread); ratio per job %.2f\n",
                                  round, run.jobs, run.wallSeconds, run.itemsPerSecond, run.rawWordsPerSecond, run.ratioPerJob)
                text += String(format: "  raw speed around it: %.0f–%.0f words/s, spread %.0f%%: %@\n",
                               around.min() ?? 0, around.max() ?? 0, run.rawSpread * 100,
                               run.isSteady ? "steady" : String(format: "unsteady (over %.0f%%), left out of the medians while a steady round exists", steadySpread * 100))
                text += String(format: "  CPU: %.2f s (%.2f cores busy), %.0f items per CPU second; raw %.0f words per CPU second; CPU ratio %.2f; output %.1f bytes/item\n",
                               run.cpuSeconds, run.coresBusy, Double(run.items) / max(run.cpuSeconds, 1e-9), run.rawWordsPerCPUSecond, run.cpuRatio,
                               run.outputBytesPerItem)
                if let share = run.recognizerShare, let speed = run.recognizerSpeedInRun, let cpu = run.recognizerCPUSeconds {
                    text += String(format: "  recognizer in the run: %.2f CPU s, %.2f of the jobs' time (measured over the run: drift cannot move it); %.0f words per CPU second there, %.2f of raw\n",
                                   cpu, share, Double(run.items) / cpu, speed)
                }
                return text
            }
        }

        /// The summaries over the rounds, a line or two per `--jobs`, and the peak memory of a detect run.
        package static func summaries(_ summaries: [Summary], peakResidentBytes peak: Int?) -> String {
            var text = ""
            for summary in summaries {
                let basis = summary.steadyRuns > 0 ? "median of \(summary.steadyRuns) steady of \(summary.runs)"
                    : "median of \(summary.runs), none steady: the machine's speed moved more than the harness's figures can show"
                text += String(format: "--jobs %d, %@: %.0f items/s, ratio per job %.2f (%.2f–%.2f), CPU ratio %.2f, %.2f cores busy\n",
                               summary.jobs, basis, summary.itemsPerSecond, summary.ratioPerJob, summary.ratioPerJobRange.lowerBound,
                               summary.ratioPerJobRange.upperBound, summary.cpuRatio, summary.coresBusy)
                if let share = summary.recognizerShare, let range = summary.recognizerShareRange {
                    text += String(format: "  recognizer's share of the jobs' time, median of all %d: %.2f (%.2f–%.2f); its speed in the run %@ of raw\n",
                                   summary.runs, share, range.lowerBound, range.upperBound,
                                   summary.recognizerSpeedInRun.map { String(format: "%.2f", $0) } ?? "unknown")
                }
            }
            return text + "peak resident memory of a detect run: " + (peak.map { String(format: "%.0f MB", Double($0) / 1_048_576) } ?? "unknown") + "\n"
        }

        /// The machine-readable last line (`nan` for what was not measured).
        package static func lastLine(items: Int, repeats: Int, summaries: [Summary], runs: [Run], scaling: CorpusScaleSchedule.Scaling?,
                                     peakResidentBytes peak: Int?) -> String {
            let first = summaries[0], last = summaries[summaries.count - 1]
            return String(format: "items=%d repeats=%d jobs1_items_per_second=%.0f jobs1_ratio=%.3f jobs1_cpu_ratio=%.3f jobs=%d items_per_second=%.0f ratio_per_job=%.3f ratio_per_job_min=%.3f cpu_ratio=%.3f cores_busy=%.2f peak_rss_mb=%@ output_bytes_per_item=%.1f raw_scaling=%@ raw_scaling_spread=%@ steady_rounds=%d raw_spread_max=%.3f recognizer_share=%@ recognizer_share_min=%@ recognizer_speed_in_run=%@\n",
                          items, repeats, first.itemsPerSecond, first.ratioPerJob, first.cpuRatio, last.jobs, last.itemsPerSecond, last.ratioPerJob,
                          last.ratioPerJobRange.lowerBound, last.cpuRatio, last.coresBusy,
                          peak.map { String(format: "%.0f", Double($0) / 1_048_576) } ?? "nan", last.outputBytesPerItem,
                          figure(scaling?.value), figure(scaling?.spread), last.steadyRuns, runs.map(\.rawSpread).max() ?? 0,
                          figure(last.recognizerShare), figure(last.recognizerShareRange?.lowerBound), figure(last.recognizerSpeedInRun))
        }

        /// A figure of the last line: three decimals, or nan when it was not measured.
        static func figure(_ value: Double?) -> String {
            value.map { String(format: "%.3f", $0) } ?? "nan"
        }
    }
}
