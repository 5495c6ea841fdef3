import BenchSupport
import Detection
import Foundation
import Items
import LlamaBackend

extension GenerationRunner {
    /// What happened to each pool server during a pooled run, in `pool` order.
    public struct PoolOutcome: Sendable, Equatable {
        /// Whether the server failed (stopped answering) during the run.
        public var failed: [Bool]
        /// Item × repeat units taken from each failed server and dealt to the others (the one in flight included).
        public var movedAway: [Int]
    }

    /// Runs the items across `pool` (`PoolDealer`): each server works its own units, `concurrency` at a
    /// time, all servers at once. A unit whose server stops answering keeps what it recorded; the rest of it,
    /// and the server's queued units, go to the servers still live. Throws `GenerationStopped.Cause.serverLost`
    /// when every server has failed (what was recorded stays, so `--resume` finishes the run).
    /// `failed`: servers already failed (at their start calibration); they and any that fail their warm-up
    /// have every unit dealt to the others before the run begins.
    public func runPooled(_ items: [CorpusItem], progress: any ProgressObserving = SilentProgress(), skip: Set<String> = [], failed: Set<Int> = [],
                          sink: @escaping Sink) async throws -> (records: [GenerationRecord], warmupRuns: Int, outcome: PoolOutcome) {
        precondition(!pool.isEmpty, "a pooled run needs a pool")
        let members = pool, runner = self, concurrency = self.concurrency
        var warmupRuns = 0
        var failed = failed
        for (index, member) in pool.enumerated() where !failed.contains(index) {
            do { warmupRuns += try await warm(items, lanes: member.lanes, recoveries: member.recoveries) } catch GenerationStopped.Cause.serverLost {
                failed.insert(index)
            } catch is BackendError {
                failed.insert(index)
            }
        }
        var dealer = PoolDealer(items: items.count, repeats: repeats, members: pool.count)
        var outcome = PoolOutcome(failed: Array(repeating: false, count: pool.count), movedAway: Array(repeating: 0, count: pool.count))
        for index in failed.sorted() {
            outcome.failed[index] = true
            outcome.movedAway[index] = dealer.fail(index, inFlight: nil)
        }
        if dealer.liveMembers.isEmpty { throw Self.everyServerLost(members) }
        progress.begin("generate", total: items.count * repeats)
        var records: [(order: Int, lane: Int, record: GenerationRecord)] = []
        var recorded = skip
        var inFlight = Array(repeating: 0, count: pool.count)
        let schedules = Schedules(self, items: items)
        typealias Finished = (member: Int, unit: PoolDealer.Unit, result: UnitResult)
        try await withThrowingTaskGroup(of: Finished.self) { group in
            func fill() {
                for member in members.indices {
                    while inFlight[member] < concurrency, let unit = dealer.next(for: member) {
                        inFlight[member] += 1
                        let skipNow = recorded, from = unit.reassignedFrom.map { members[$0].label }
                        group.addTask {
                            let result = try await runner.unit(items[unit.index], index: unit.index, repeatIndex: unit.repeatIndex,
                                                               lanes: members[member].lanes, recoveries: members[member].recoveries, schedules: schedules,
                                                               skip: skipNow, server: members[member].label, reassignedFrom: from, sink: sink)
                            return (member, unit, result)
                        }
                    }
                }
            }
            fill()
            while let finished = try await group.next() {
                inFlight[finished.member] -= 1
                records += finished.result.records.map { (order: $0.0, lane: $0.1, record: $0.2) }
                recorded.formUnion(finished.result.records.map(\.2.key))
                if finished.result.lost != nil {
                    outcome.failed[finished.member] = true
                    outcome.movedAway[finished.member] += dealer.fail(finished.member, inFlight: finished.unit)
                    if dealer.liveMembers.isEmpty { throw Self.everyServerLost(members) }
                } else {
                    progress.advance(by: 1)
                }
                fill()
            }
        }
        progress.end()
        return (Self.sorted(records), warmupRuns, outcome)
    }

    static func everyServerLost(_ members: [PoolMember]) -> GenerationStopped.Cause {
        .serverLost("every server of the pool stopped answering (" + members.map(\.label).joined(separator: ", ") + "); start them again")
    }
}
