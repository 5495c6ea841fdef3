import Support
import Foundation
import Corpus
import Backend

/// Runs the reply pipeline over items × variants × routes × repeats with up to `concurrency` items in
/// flight (use as many server slots). Warm-up items go first (through every variant) and are excluded
/// from the results. An item's variants run back to back in a counterbalanced order (`VariantSchedule`)
/// and, within each, its routes too (`RouteSchedule`), both seeded by the sampling seed.
package struct GenerationRunner: Sendable {
    /// One variant's pipeline; `name` nil for the single variant of a run without a variants file. `pipeline` detects
    /// with the run's reference config; `configs` are the same pipeline detecting with the run's other configs.
    package struct Lane: Sendable {
        package var name: String?
        package var pipeline: ReplyPipeline
        package var configs: [Config]
        /// A variant that changes only the pivot's translator runs the pivot alone, and only for messages the pivot
        /// translates (not detected as English, or as nothing): its other records would repeat the reference's requests.
        package var pivotOnly: Bool

        /// Another detection config's pipeline (its records carry `name`).
        package struct Config: Sendable {
            package var name: String
            package var pipeline: ReplyPipeline

            package init(name: String, pipeline: ReplyPipeline) {
                self.name = name
                self.pipeline = pipeline
            }
        }

        package init(name: String?, pipeline: ReplyPipeline, configs: [Config] = [], pivotOnly: Bool = false) {
            self.name = name
            self.pipeline = pipeline
            self.configs = configs
            self.pivotOnly = pivotOnly
        }

        /// The routes of `plan` this lane runs.
        func routes(of plan: ReplyPipeline.Plan) -> [Route] {
            guard pivotOnly else { return plan.routes }
            let translated = !(plan.detection.language ?? ReplyPipeline.english).isEquivalent(to: ReplyPipeline.english)
            return translated ? plan.routes.filter { $0 == .pivot } : []
        }

        /// The reference pipeline (config nil), then each other config's.
        var pipelines: [(config: String?, pipeline: ReplyPipeline)] {
            [(nil, pipeline)] + configs.map { ($0.name, $0.pipeline) }
        }

        /// One request an item × repeat makes in this lane: a config's pipeline (config nil: the reference), what
        /// it detects, the route and the key of its record.
        struct Request {
            var config: String?
            var pipeline: ReplyPipeline
            var detection: ReplyPipeline.Detection
            var route: Route
            var order: RouteOrder
            var key: String
        }

        /// The requests an item × repeat makes in this lane, every config's, each config's routes in the order
        /// `schedule` gives (detection is local: no server is asked).
        func requests(_ item: CorpusItem, repeatIndex: Int, choice: RouteChoice, schedule: RouteSchedule) async throws -> [Request] {
            var requests: [Request] = []
            for (config, pipeline) in pipelines {
                let plan = try await pipeline.plan(item, choice: choice)
                let (routes, order) = schedule.arrange(self.routes(of: plan), item: item.id, repeatIndex: repeatIndex)
                for route in routes {
                    requests.append(Request(config: config, pipeline: pipeline, detection: plan.detection, route: route, order: order,
                                            key: GenerationRecord.key(item: item.id, route: route, repeatIndex: repeatIndex, variant: name, config: config)))
                }
            }
            return requests
        }
    }

    package var lanes: [Lane]
    package var choice: RouteChoice
    package var repeats: Int
    package var concurrency: Int
    package var warmup: Int
    /// Per lane, what brings its server back when it dies, so its failures are redone rather than
    /// recorded; empty: record them.
    package var recoveries: [ServerRecovery] = []
    /// The signal that interrupted the process, if any: from then on nothing is recorded.
    package var stopSignal: @Sendable () -> Int32? = { ServerReaper.interruptingSignal }

    package init(lanes: [Lane], choice: RouteChoice, repeats: Int = 1, concurrency: Int = 1, warmup: Int = 1) {
        precondition(!lanes.isEmpty, "a generation run needs at least one variant")
        self.lanes = lanes
        self.choice = choice
        self.repeats = max(1, repeats)
        self.concurrency = max(1, concurrency)
        self.warmup = max(0, warmup)
    }

    /// A run of one pipeline (no variants file).
    package init(pipeline: ReplyPipeline, choice: RouteChoice, repeats: Int = 1, concurrency: Int = 1, warmup: Int = 1) {
        self.init(lanes: [Lane(name: nil, pipeline: pipeline)], choice: choice, repeats: repeats, concurrency: concurrency, warmup: warmup)
    }

    /// The first variant's pipeline (the reference the others are compared with).
    package var pipeline: ReplyPipeline { lanes[0].pipeline }

    /// Receives every output as soon as it exists (to append it to disk).
    package typealias Sink = @Sendable (ReplyPipeline.Output) throws -> Void

    /// A pool of servers to deal the items across (`ServerPool`); empty: every lane runs on its own one server.
    package var pool: [PoolMember] = []

    /// Deals every item × repeat and forwards each output to `sink`, which keeps it (the store: records live in
    /// its log, not here). Returns the number of warm-up requests made.
    package func run(_ items: [CorpusItem], progress: any ProgressObserving = SilentProgress(), skip: Set<String> = [],
                    sink: @escaping Sink) async throws -> Int {
        let warmupRuns = try await warm(items, lanes: lanes, recoveries: recoveries)
        let work = (0..<repeats).flatMap { repeatIndex in items.indices.map { (index: $0, repeatIndex: repeatIndex) } }
        progress.begin("generate", total: work.count)
        let lanes = self.lanes, recoveries = self.recoveries, runner = self
        let schedules = Schedules(self, items: items)
        try await withThrowingTaskGroup(of: Void.self) { group in
            var next = 0
            func submit() {
                guard next < work.count else { return }
                let (index, repeatIndex) = work[next]
                next += 1
                group.addTask {
                    _ = try await runner.unit(items[index], repeatIndex: repeatIndex, lanes: lanes, recoveries: recoveries,
                                              schedules: schedules, skip: skip, sink: sink)
                }
            }
            for _ in 0..<concurrency { submit() }
            while try await group.next() != nil {
                progress.advance(by: 1)
                submit()
            }
        }
        progress.end()
        return warmupRuns
    }

    /// The route and variant orders of a run, seeded by the sampling seed.
    struct Schedules: Sendable {
        var routes: RouteSchedule
        var variants: VariantSchedule

        init(_ runner: GenerationRunner, items: [CorpusItem]) {
            let seed = UInt64(runner.pipeline.seed ?? runner.pipeline.profile.sampling.seed)
            routes = RouteSchedule(items: items, seed: seed)
            variants = VariantSchedule(items: items, variants: runner.lanes.count, seed: seed)
        }
    }

    /// The warm-up items through every lane; returns the requests made.
    func warm(_ items: [CorpusItem], lanes: [Lane], recoveries: [ServerRecovery]) async throws -> Int {
        var warmupRuns = 0
        for item in items.prefix(warmup) {
            for (laneIndex, lane) in lanes.enumerated() {
                let plan = try await lane.pipeline.plan(item, choice: choice)
                if plan.detection.isCrisis { continue }
                for route in plan.routes {
                    _ = try await recordableReply(pipeline: lane.pipeline, variant: lane.name,
                                                  recovery: recoveries.indices.contains(laneIndex) ? recoveries[laneIndex] : nil,
                                                  to: item, detection: plan.detection, route: route, repeatIndex: -1)
                    warmupRuns += 1
                }
            }
        }
        return warmupRuns
    }

    /// What one item × repeat produced: the keys of its records, and, in a pool, the loss of its server before
    /// the last of them (`lost`), which leaves the rest to another server.
    struct UnitResult: Sendable {
        var recorded: [String]
        var lost: GenerationStopped.Cause?
    }

    /// One item × repeat through every lane (variants in their scheduled order, routes too), each output
    /// handed to `sink` as it exists. With `server` (a pool member's label), outputs are labelled with it
    /// and a lost server ends the unit with `lost` instead of throwing.
    func unit(_ item: CorpusItem, repeatIndex: Int, lanes: [Lane], recoveries: [ServerRecovery], schedules: Schedules,
              skip: Set<String>, server: String? = nil, reassignedFrom: String? = nil, sink: Sink) async throws -> UnitResult {
        var done: [String] = []
        for laneIndex in schedules.variants.order(item: item.id, repeatIndex: repeatIndex) {
            let lane = lanes[laneIndex]
            let recovery = recoveries.indices.contains(laneIndex) ? recoveries[laneIndex] : nil
            // This item's outputs by route, of every config so far: a later config that detects the same language
            // makes the same requests, so it reuses them (`sharable`) instead of asking the server again.
            var made: [Route: [ReplyPipeline.Output]] = [:]
            for request in try await lane.requests(item, repeatIndex: repeatIndex, choice: choice, schedule: schedules.routes) where !skip.contains(request.key) {
                let (config, pipeline, route) = (request.config, request.pipeline, request.route)
                var output: ReplyPipeline.Output
                var earlier: ReplyPipeline.Output?
                for candidate in made[route] ?? [] {
                    if try await pipeline.sharable(candidate, detection: request.detection) {
                        earlier = candidate
                        break
                    }
                }
                if let earlier {
                    output = earlier.shared(as: config)
                } else {
                    do {
                        output = try await recordableReply(pipeline: pipeline, variant: lane.name, recovery: recovery, to: item, detection: request.detection,
                                                           route: route, repeatIndex: repeatIndex, order: request.order)
                    } catch let cause as GenerationStopped.Cause {
                        guard server != nil, case .serverLost = cause else { throw cause }
                        return UnitResult(recorded: done, lost: cause)
                    }
                    if server != nil { output.label(server: server, reassignedFrom: reassignedFrom) }
                    output.label(config: config)
                    made[route, default: []].append(output)
                }
                try sink(output)
                done.append(output.record.key)
            }
        }
        return UnitResult(recorded: done, lost: nil)
    }
}
