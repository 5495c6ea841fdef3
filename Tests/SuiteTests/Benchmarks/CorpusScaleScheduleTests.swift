import Foundation
import Synchronization
import Testing
@testable import Suite

/// `bench corpus-scale`'s measurement design, with scripted measurements: what runs in which order, and
/// which raw-speed blocks each figure is set against.
struct CorpusScaleScheduleTests {
    /// Scripted probes: raw blocks hand out `blocks` in turn, and every call is traced.
    final class Script: Sendable {
        let trace = Mutex<[String]>([])
        let blocks: Mutex<[[Double]]>
        let together: [Double]

        init(blocks: [[Double]], together: [Double] = []) {
            self.blocks = Mutex(blocks)
            self.together = together
        }

        var probes: CorpusScaleSchedule.Probes {
            CorpusScaleSchedule.Probes(
                rawBlock: {
                    self.trace.withLock { $0.append("raw") }
                    // Per CPU second a tenth of the wall figure, so the two are told apart.
                    return self.blocks.withLock { $0.removeFirst() }.map { CorpusScaleSchedule.RawSpeed(wall: $0, cpu: $0 / 10) }
                },
                rawTogether: { n in
                    self.trace.withLock { $0.append("together \(n)") }
                    return self.together
                },
                detect: { jobs in
                    self.trace.withLock { $0.append("detect \(jobs)") }
                    return CorpusScaleSchedule.Detected(wallSeconds: 2, cpuSeconds: 3, outputBytes: 140, recognizerCPUSeconds: 1.5 * Double(jobs))
                })
        }
    }

    @Test func everyRunIsMeasuredBetweenTwoRawBlocksAndTheScalingBetweenTwoMore() async throws {
        let script = Script(blocks: [[100, 110, 90], [120, 100, 100], [100, 100, 105], [200, 100, 100], [100, 100, 100], [100, 100, 100]],
                            together: [90, 95])
        var events: [CorpusScaleSchedule.Event] = []
        let (runs, scaling) = try await CorpusScaleSchedule(items: 1_000, jobs: 2, repeats: 2).measure(script.probes) { events.append($0) }
        #expect(script.trace.withLock { $0 } == ["raw", "together 2", "raw", "detect 1", "raw", "detect 2", "raw", "detect 1", "raw", "detect 2", "raw"])
        #expect(runs.map(\.jobs) == [1, 2, 1, 2])
        #expect(events.count == 5)

        // The scaling: the processes at once over 2 × the mean of the medians on its two sides (100, 100).
        let control = try #require(scaling)
        #expect(control.single == 100)
        #expect(control.together == 185)
        #expect(control.value == 0.925)
        #expect(abs(control.spread - (120.0 / 90 - 1)) < 1e-12)
        #expect(!control.isSteady)

        // Run 1 sits between blocks 2 and 3, run 2 between 3 and 4, …: the block after one run is the one before the next.
        #expect(runs.map(\.rawWordsPerSecond) == [100, 100, 100, 100])
        #expect(runs.map(\.rawWordsPerCPUSecond) == [10, 10, 10, 10])
        #expect(abs(runs[0].rawSpread - 0.2) < 1e-12)  // 120 over 100
        #expect(abs(runs[1].rawSpread - 1.0) < 1e-12)  // 200 over 100
        #expect(abs(runs[2].rawSpread - 1.0) < 1e-12)
        #expect(runs[3].rawSpread == 0)
        #expect(runs.map(\.isSteady) == [false, false, false, true])
        guard case .run(let round, _, let around) = events[2] else { Issue.record("\(events[2])"); return }
        #expect(round == 1)
        #expect(around == [100, 100, 105, 200, 100, 100])
        #expect(runs.allSatisfy { $0.items == 1_000 && $0.wallSeconds == 2 && $0.cpuSeconds == 3 && $0.outputBytes == 140 })
        #expect(runs.map(\.recognizerCPUSeconds) == [1.5, 3, 1.5, 3], "each run keeps its own recognizer time")
        #expect(runs.map(\.recognizerShare) == [0.75, 0.75, 0.75, 0.75])
    }

    /// With one job there is no second run per round and no scaling control.
    @Test func oneJobRunsAloneWithoutTheScalingControl() async throws {
        let script = Script(blocks: [[100], [100], [100], [100]])
        let (runs, scaling) = try await CorpusScaleSchedule(items: 10, jobs: 1, repeats: 3).measure(script.probes)
        #expect(script.trace.withLock { $0 } == ["raw", "detect 1", "raw", "detect 1", "raw", "detect 1", "raw"])
        #expect(runs.map(\.jobs) == [1, 1, 1])
        #expect(scaling == nil)
    }
}
