import Support
import Foundation
import Corpus
import Backend

extension GenerationRunner {
    /// What happened to each pool server during a pooled run, in `pool` order.
    package struct PoolOutcome: Sendable, Equatable {
        /// Whether the server failed (stopped answering) during the run.
        package var failed: [Bool]
        /// Item × repeat units taken from each failed server and dealt to the others (the one in flight included;
        /// units already recorded by the run this one resumes are not dealt, so not counted).
        package var movedAway: [Int]
        /// Why each failed server failed (`PoolFailure`); nil for the others.
        package var failures: [String?]
    }

    /// Runs the items across `pool` (`PoolDealer`): each server works its own units, `concurrency` at a
    /// time, all servers at once. A unit whose server stops answering keeps what it recorded; the rest of it,
    /// and the server's queued units, go to the servers still live. Throws `GenerationStopped.Cause.serverLost`
    /// when every server has failed (what was recorded stays, so `--resume` finishes the run).
    /// `failed`: servers already failed (at attach or their start calibration), with why; they and any that fail
    /// their warm-up have every unit dealt to the others before the run begins. Units whose every record is in
    /// `skip` (a resumed run's) are not dealt at all.
    package func runPooled(_ items: [CorpusItem], progress: any ProgressObserving = SilentProgress(), skip: Set<String> = [], failed: [Int: String] = [:],
                          sink: @escaping Sink) async throws -> (warmupRuns: Int, outcome: PoolOutcome) {
        precondition(!pool.isEmpty, "a pooled run needs a pool")
        let members = pool, runner = self, concurrency = self.concurrency
        var warmupRuns = 0
        var failed = failed
        for (index, member) in pool.enumerated() where failed[index] == nil {
            do { warmupRuns += try await warm(items, lanes: member.lanes, recoveries: member.recoveries) } catch let cause as GenerationStopped.Cause {
                guard case .serverLost = cause else { throw cause }
                failed[index] = PoolFailure.reason(.warmup, cause)
            } catch let error as BackendError {
                failed[index] = PoolFailure.reason(.warmup, error)
            }
        }
        let schedules = Schedules(self, items: items)
        let recordedUnits = try await recorded(items, skip: skip, schedules: schedules)
        var dealer = PoolDealer(items: items.count, repeats: repeats, members: pool.count, recorded: recordedUnits)
        var outcome = PoolOutcome(failed: Array(repeating: false, count: pool.count), movedAway: Array(repeating: 0, count: pool.count),
                                  failures: Array(repeating: nil, count: pool.count))
        for index in failed.keys.sorted() {
            outcome.failed[index] = true
            outcome.failures[index] = failed[index]
            outcome.movedAway[index] = dealer.fail(index, inFlight: nil)
        }
        if dealer.liveMembers.isEmpty { throw Self.everyServerLost(members) }
        progress.begin("generate", total: items.count * repeats)
        if !recordedUnits.isEmpty { progress.advance(by: recordedUnits.count) }
        var recorded = skip
        var inFlight = Array(repeating: 0, count: pool.count)
        typealias Finished = (member: Int, unit: PoolDealer.Unit, result: UnitResult)
        try await withThrowingTaskGroup(of: Finished.self) { group in
            func fill() {
                for member in members.indices {
                    while inFlight[member] < concurrency, let unit = dealer.next(for: member) {
                        inFlight[member] += 1
                        let skipNow = recorded, from = unit.reassignedFrom.map { members[$0].label }
                        group.addTask {
                            let result = try await runner.unit(items[unit.index], repeatIndex: unit.repeatIndex,
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
                recorded.formUnion(finished.result.recorded)
                if let lost = finished.result.lost {
                    outcome.failed[finished.member] = true
                    outcome.failures[finished.member] = PoolFailure.reason(.run, lost)
                    outcome.movedAway[finished.member] += dealer.fail(finished.member, inFlight: finished.unit)
                    if dealer.liveMembers.isEmpty { throw Self.everyServerLost(members) }
                } else {
                    progress.advance(by: 1)
                }
                fill()
            }
        }
        progress.end()
        return (warmupRuns, outcome)
    }

    /// The units (as positions, repeat × items + item) whose every record is in `skip`: each lane's routes for
    /// the item as `unit` would run them (detection is local, so this asks no server).
    func recorded(_ items: [CorpusItem], skip: Set<String>, schedules: Schedules) async throws -> Set<Int> {
        guard !skip.isEmpty else { return [] }
        let positions = items.map(\.id).firstPositions
        let started = Set(skip.compactMap { positions[String($0.prefix { $0 != GenerationRecord.keySeparator })] })
        var units = Set<Int>()
        for index in started.sorted() {
            for repeatIndex in 0..<repeats {
                var keys: [String] = []
                for lane in lanes { keys += try await lane.requests(items[index], repeatIndex: repeatIndex, choice: choice, schedule: schedules.routes).map(\.key) }
                if keys.allSatisfy(skip.contains) { units.insert(repeatIndex * items.count + index) }
            }
        }
        return units
    }

    static func everyServerLost(_ members: [PoolMember]) -> GenerationStopped.Cause {
        .serverLost("every server of the pool stopped answering (" + members.map(\.label).joined(separator: ", ") + "); start them again")
    }
}
