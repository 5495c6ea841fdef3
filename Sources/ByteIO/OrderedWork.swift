import Dispatch
import Synchronization

/// Runs jobs on up to `width` worker threads at once and hands their results back in the order the jobs
/// were submitted, so that work done in parallel is consumed exactly as if done one job after another.
/// Used by one thread (the one submitting and taking).
package final class OrderedWork<Result: Sendable> {
    /// One job's result, written by its worker before `done` is signalled and read only after waiting on
    /// it: the semaphore orders the two, and the lock (never contended) lets the compiler see it.
    private final class Slot: Sendable {
        let result = Mutex<Result?>(nil)
        let done = DispatchSemaphore(value: 0)
    }

    let width: Int
    private var slots: [Slot] = []
    /// One serial queue per job in flight, taken in turn: each has a thread of its own, so the jobs do not
    /// wait for the threads of Swift's concurrency pool, which the caller (reading a corpus inside an async
    /// run) and that run's other tasks (loading the model) hold. From the global queue they shared one.
    private let queues: [DispatchQueue]
    private var submitted = 0

    package init(width: Int) {
        self.width = max(1, width)
        queues = (0..<self.width).map { DispatchQueue(label: "langbench.ordered-work-\($0)") }
    }

    deinit {
        for slot in slots { slot.done.wait() }  // jobs still running finish before their slots go
    }

    /// Whether `width` jobs are in flight: take one before submitting another.
    package var isFull: Bool { slots.count >= width }

    package func submit(_ job: @escaping @Sendable () -> Result) {
        let slot = Slot()
        slots.append(slot)
        // Job k + width is submitted only after job k was taken: its queue is free.
        let queue = queues[submitted % width]
        submitted += 1
        queue.async {
            let result = job()
            slot.result.withLock { $0 = result }
            slot.done.signal()
        }
    }

    /// The result of the oldest job not yet taken, waiting for it; nil when none is in flight.
    package func next() -> Result? {
        guard !slots.isEmpty else { return nil }
        let slot = slots.removeFirst()
        slot.done.wait()
        return slot.result.withLock { $0 }
    }
}
