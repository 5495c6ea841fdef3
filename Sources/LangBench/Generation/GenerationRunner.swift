import Foundation
import LlamaBackend

/// Runs the reply pipeline over items × routes × repeats with up to `concurrency` items in flight
/// (use as many server slots). Warm-up items go first and are excluded from the results. When an item
/// takes both routes, their order is counterbalanced (`RouteSchedule`, seeded by the sampling seed).
public struct GenerationRunner: Sendable {
    public var pipeline: ReplyPipeline
    public var choice: RouteChoice
    public var repeats: Int
    public var concurrency: Int
    public var warmup: Int
    /// Brings a server that died back, so its failures are redone rather than recorded (nil: record them).
    public var recovery: ServerRecovery?
    /// The signal that interrupted the process, if any: from then on nothing is recorded.
    public var stopSignal: @Sendable () -> Int32? = { ServerReaper.interruptingSignal }

    public init(pipeline: ReplyPipeline, choice: RouteChoice, repeats: Int = 1, concurrency: Int = 1, warmup: Int = 1) {
        self.pipeline = pipeline
        self.choice = choice
        self.repeats = max(1, repeats)
        self.concurrency = max(1, concurrency)
        self.warmup = max(0, warmup)
    }

    /// Receives every output as soon as it exists (to append it to disk).
    public typealias Sink = @Sendable (ReplyPipeline.Output) throws -> Void

    /// Returns the records in corpus order (then route, then repeat) and the number of warm-up requests made.
    public func run(_ items: [CorpusItem], progress: any ProgressObserving = SilentProgress(), skip: Set<String> = [],
                    sink: @escaping Sink) async throws -> (records: [GenerationRecord], warmupRuns: Int) {
        var warmupRuns = 0
        for item in items.prefix(warmup) {
            let detection = await pipeline.detect(item)
            if detection.isCrisis { continue }
            for route in pipeline.routes(for: detection, choice: choice) {
                _ = try await recordableReply(to: item, detection: detection, route: route, repeatIndex: -1)
                warmupRuns += 1
            }
        }
        let work = (0..<repeats).flatMap { repeatIndex in items.indices.map { (index: $0, repeatIndex: repeatIndex) } }
        progress.begin("generate", total: work.count)
        var records: [(order: Int, record: GenerationRecord)] = []
        let pipeline = self.pipeline, choice = self.choice, runner = self
        let schedule = RouteSchedule(items: items, seed: UInt64(pipeline.seed ?? pipeline.profile.sampling.seed))
        try await withThrowingTaskGroup(of: [(Int, GenerationRecord)].self) { group in
            var next = 0
            func submit() {
                guard next < work.count else { return }
                let (index, repeatIndex) = work[next]
                next += 1
                let item = items[index]
                group.addTask {
                    let detection = await pipeline.detect(item)
                    var done: [(Int, GenerationRecord)] = []
                    let (routes, order) = schedule.arrange(pipeline.routes(for: detection, choice: choice), item: item.id, repeatIndex: repeatIndex)
                    for route in routes {
                        let key = GenerationRecord.key(item: item.id, route: route, repeatIndex: repeatIndex)
                        if skip.contains(key) { continue }
                        let output = try await runner.recordableReply(to: item, detection: detection, route: route, repeatIndex: repeatIndex, order: order)
                        try sink(output)
                        done.append((index, output.record))
                    }
                    return done
                }
            }
            for _ in 0..<concurrency { submit() }
            while let finished = try await group.next() {
                records += finished.map { (order: $0.0, record: $0.1) }
                progress.advance(by: 1)
                submit()
            }
        }
        progress.end()
        let sorted = records.sorted { ($0.order, $0.record.route, $0.record.repeatIndex) < ($1.order, $1.record.route, $1.record.repeatIndex) }
        return (sorted.map(\.record), warmupRuns)
    }
}
