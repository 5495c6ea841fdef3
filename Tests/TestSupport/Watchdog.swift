import Synchronization
import Testing

/// Runs seeded fuzz work on its own task, racing a watchdog that fails the test naming the seed and case of
/// a hang instead of hanging.
public enum Watchdog {
    /// Far above the few seconds the cases take: only a hang reaches it.
    public static let seconds = 600

    /// The case being run, for the watchdog's message.
    public final class Progress: Sendable {
        public let index = Atomic<Int>(0)
    }

    /// Runs `body` (synchronous work) on its own task and fails the test, naming the case, if it has not
    /// finished after `seconds`.
    public static func run(_ name: String, seed: UInt64, _ body: @escaping @Sendable (Progress) throws -> Void) async throws {
        let progress = Progress()
        let work = Task.detached { try body(progress) }
        let finished = await withTaskGroup(of: Bool.self) { group in
            group.addTask { _ = await work.result; return true }
            group.addTask {
                try? await Task.sleep(for: .seconds(seconds))  // try?: cancelled once the work is done
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
        #expect(finished, "\(name) fuzz case \(progress.index.load(ordering: .relaxed)) (seed \(seed)) did not finish in \(seconds) s: a hang")
        if finished { try await work.value }
    }

}
