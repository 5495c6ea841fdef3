import Support
import Dispatch
import Foundation
import ByteIO
import Synchronization

/// Sorts and writes the spool's runs on a thread of its own, one run at a time, so that reading goes on
/// while a run is written: at most one run is being written while the next fills.
final class RunWriter {
    /// The run being written, whose outcome `wait` collects.
    private var writing: DispatchWorkItem?
    private var run: Run?
    private let queue = DispatchQueue(label: "langbench.spool-runs")

    /// A run handed to the queue: its records (owned by the queue once handed over), and the error
    /// of writing them; read back only after waiting on the write (the lock is never contended).
    private final class Run: Sendable {
        let state: Mutex<(records: EncodedRun, error: (any Error)?)>

        init(_ records: sending EncodedRun) {
            state = Mutex((records, nil))
        }
    }

    deinit { drain() }

    /// Waits for the run being written, if any, ignoring its outcome (the spool is being dropped).
    func drain() {
        writing?.wait()
    }

    /// Waits for the run being written (if any) and throws its error.
    func wait() throws {
        guard let writing, let run else { return }
        writing.wait()
        self.writing = nil
        self.run = nil
        if let error = run.state.withLock({ $0.error }) { throw error }
    }

    /// Takes `records` (leaving them empty), then writes them to `url` in canonical order, once the run
    /// before is written.
    func write(_ records: inout EncodedRun, to url: URL) throws {
        try wait()
        let run = Run(records)
        records = EncodedRun()  // the run's buffers are the queue's alone: not copied
        let work = DispatchWorkItem {
            run.state.withLock { state in
                do {
                    try Self.write(state.records, to: url)
                } catch {
                    state.error = error
                }
                state.records = EncodedRun()
            }
        }
        self.run = run
        writing = work
        queue.async(execute: work)
    }

    private static func write(_ records: EncodedRun, to url: URL) throws {
        let writer = try BufferedFileWriter(url: url)
        for position in records.canonicalOrder() {
            writer.append(bytes: records.record(position))
            try writer.flushIfFull()
        }
        try writer.finish()
    }
}
