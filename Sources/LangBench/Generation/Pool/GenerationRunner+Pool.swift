import Foundation

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
    public func runPooled(_ items: [CorpusItem], progress: any ProgressObserving = SilentProgress(), skip: Set<String> = [],
                          sink: @escaping Sink) async throws -> (records: [GenerationRecord], warmupRuns: Int, outcome: PoolOutcome) {
        precondition(!pool.isEmpty, "a pooled run needs a pool")
        var warmupRuns = 0
        for member in pool { warmupRuns += try await warm(items, lanes: member.lanes, recoveries: member.recoveries) }
        var dealer = PoolDealer(items: items.count, repeats: repeats, members: pool.count)
        progress.begin("generate", total: items.count * repeats)
        var records: [(order: Int, lane: Int, record: GenerationRecord)] = []
        var recorded = skip
        var inFlight = Array(repeating: 0, count: pool.count)
        var outcome = PoolOutcome(failed: Array(repeating: false, count: pool.count), movedAway: Array(repeating: 0, count: pool.count))
        let members = pool, runner = self, concurrency = self.concurrency
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
                    if dealer.liveMembers.isEmpty {
                        throw GenerationStopped.Cause.serverLost("every server of the pool stopped answering (" + members.map(\.label).joined(separator: ", ")
                                                                 + "); start them again")
                    }
                } else {
                    progress.advance(by: 1)
                }
                fill()
            }
        }
        progress.end()
        return (Self.sorted(records), warmupRuns, outcome)
    }
}
