@testable import Support
@testable import Detection
import Foundation
@testable import Corpus
import Synchronization
import Testing

/// The runner hands batches to the sink in canonical order whatever the jobs and batches in flight, and an
/// error in the sink ends the run only after the batches still detecting.
struct DetectionRunnerTests {
    /// A detector that answers "en" for every text, counting calls that started and ended, and the most
    /// that ran at once.
    struct CountingDetector: LanguageIdentifying {
        let started = Counter(), ended = Counter()
        let running = Running()
        var name: String { "counting" }

        final class Running: Sendable {
            let state = Mutex<(now: Int, most: Int)>((0, 0))
            func start() { state.withLock { $0.now += 1; $0.most = max($0.most, $0.now) } }
            func end() { state.withLock { $0.now -= 1 } }
            var most: Int { state.withLock { $0.most } }
        }

        final class Counter: Sendable {
            let count = Atomic<Int>(0)
            func add() { count.add(1, ordering: .relaxed) }
            var value: Int { count.load(ordering: .relaxed) }
        }

        func identify(_ text: String, candidates: [LanguageCode]?, hints: [LanguageCode: Double]) async -> DetectionOutcome {
            .hypotheses([Hypothesis(lang: LanguageCode(normalised: "en"), probability: 1)])
        }

        func concurrentIdentifier(candidates: [LanguageCode]?, hints: [LanguageCode: Double]) -> (@Sendable (String) -> Hypothesis?)? {
            let started = started, ended = ended, running = running
            return { _ in
                started.add()
                running.start()
                Thread.sleep(forTimeInterval: 0.0002)  // long enough for batches in flight to overlap if they could
                defer {
                    running.end()
                    ended.add()
                }
                return Hypothesis(lang: LanguageCode(normalised: "en"), probability: 1)
            }
        }
    }

    static func items(_ count: Int) -> SortedCorpus {
        SortedCorpus(items: (0..<count).map { CorpusItem(id: String(format: "i%05d", $0), lang: LanguageCode(normalised: "en"), text: "word \($0)") },
                     sources: [])
    }

    static func runner(jobs: Int, detector: CountingDetector) throws -> DetectionRunner {
        try DetectionRunner(configs: [DetectionConfig(name: "c", detector: "counting", candidates: .none)], supported: [], jobs: jobs, batchSize: 7) { _ in detector }
    }

    @Test(arguments: [1, 2, 3])
    func batchesComeInOrderWithAnyJobs(jobs: Int) async throws {
        let detector = CountingDetector()
        let positions = Mutex<[Range<Int>]>([])
        let sink = DetectionRunner.Sink { batch in positions.withLock { $0.append(batch.positions) } }
        _ = try await Self.runner(jobs: jobs, detector: detector).run(Self.items(100), sink: sink)
        let seen = positions.withLock { $0 }
        #expect(seen.map(\.lowerBound) == Array(stride(from: 0, to: 100, by: 7)))
        #expect(seen.last?.upperBound == 100)
        #expect(detector.started.value == 100)
        if jobs == 1 { #expect(detector.running.most == 1, "one job: one detection at a time") }
    }

    /// A detector run on tasks that spends `perItem` seconds on each text, asleep or busy on its thread.
    struct TimedDetector: LanguageIdentifying {
        let perItem: Double
        let busy: Bool
        var name: String { "timed" }

        func identify(_ text: String, candidates: [LanguageCode]?, hints: [LanguageCode: Double]) async -> DetectionOutcome { .undetermined }

        func concurrentIdentifier(candidates: [LanguageCode]?, hints: [LanguageCode: Double]) -> (@Sendable (String) -> Hypothesis?)? {
            let perItem = perItem, busy = busy
            return { _ in
                if busy {
                    // Until this thread's own CPU clock has moved on by `perItem`.
                    let start = SystemCall.threadCPUSeconds() ?? 0
                    while (SystemCall.threadCPUSeconds() ?? .infinity) - start < perItem {}
                } else {
                    Thread.sleep(forTimeInterval: perItem)
                }
                return nil
            }
        }
    }

    /// A detector one item at a time (no concurrent identifier).
    struct SerialDetector: LanguageIdentifying {
        var name: String { "serial" }
        func identify(_ text: String, candidates: [LanguageCode]?, hints: [LanguageCode: Double]) async -> DetectionOutcome { .undetermined }
    }

    /// The timing's CPU seconds are the detecting threads' own CPU time: about the wall time for a detector
    /// that keeps its thread busy, next to nothing for one that sleeps (its wall seconds still count the
    /// sleep), and absent for a detector driven an item at a time.
    @Test(arguments: [1, 2])
    func theDetectorsCPUSecondsAreTheThreadsOwnTime(jobs: Int) async throws {
        func timing(_ detector: any LanguageIdentifying) async throws -> DetectionRunner.Timing {
            let runner = try DetectionRunner(configs: [DetectionConfig(name: "c", detector: detector.name, candidates: .none)], supported: [], jobs: jobs,
                                             batchSize: 7) { _ in detector }
            return try #require(try await runner.run(Self.items(60), sink: DetectionRunner.Sink { _ in }).first)
        }
        let busy = try await timing(TimedDetector(perItem: 0.0005, busy: true))
        let busyCPU = try #require(busy.cpuSeconds)
        #expect(busyCPU >= 60 * 0.0005, "every item's busy time is counted")
        #expect(busyCPU <= busy.seconds + 0.001, "a thread's CPU time over a stretch is no more than its wall time")

        let asleep = try await timing(TimedDetector(perItem: 0.0005, busy: false))
        let asleepCPU = try #require(asleep.cpuSeconds)
        #expect(asleep.seconds >= 60 * 0.0005)
        #expect(asleepCPU < asleep.seconds / 2, "time asleep is wall time, not CPU time")

        #expect(try await timing(SerialDetector()).cpuSeconds == nil)
    }

    struct Stop: Error {}

    /// With two batches in flight (more than one job), a failing sink stops the run with its error, after
    /// every identifier call started has ended, and no batch past the ones in flight starts.
    @Test(arguments: [1, 2])
    func aSinkErrorEndsTheRunAfterTheBatchesInFlight(jobs: Int) async throws {
        let detector = CountingDetector()
        let sink = DetectionRunner.Sink { batch in if batch.positions.lowerBound == 14 { throw Stop() } }
        let runner = try Self.runner(jobs: jobs, detector: detector)
        await #expect(throws: Stop.self) { _ = try await runner.run(Self.items(100), sink: sink) }
        #expect(detector.started.value == detector.ended.value)
        // Batches 0–2 recorded or failing, plus those in flight behind the failing one.
        #expect(detector.started.value <= 7 * (3 + DetectionRunner.inFlight))
    }
}
