import BenchSupport
import Foundation

/// A results log read and parsed on a thread of its own, a batch of results ahead of the reader
/// (`DetectionStore.Cursor`): parsing rows is most of the work of reading a log, and `compare` and
/// `merge` read two or more logs at once, so each is parsed on its own core while the caller pairs or
/// writes. At most `ahead` batches wait: memory stays a few batches, whatever the log's size.
final class ResultBatches: @unchecked Sendable {
    // @unchecked: every access to the mutable state below goes through `condition`.
    static let batchSize = 4096
    static let ahead = 2

    private let condition = NSCondition()
    private var ready: [[DetectionResult]] = []
    private var finished = false
    private var failure: (any Error)?
    private var cancelled = false

    /// Starts reading `log` (whose lines `DetectionResultLog.Lines` parses), its first `length` bytes when
    /// given; with `segment`, from that segment's first line (the log's `header` read already).
    init(_ log: URL, segment: DetectionStore.Segment? = nil, header: DetectionLogHeader? = nil, length: Int? = nil) {
        let thread = Thread { [self] in produce(log, segment: segment, header: header, length: length) }
        thread.name = "langbench.results-log"
        thread.start()
    }

    deinit { cancel() }

    /// The next batch (never empty), or nil at the end of the log; the reading thread's error, if any.
    func next() throws -> [DetectionResult]? {
        condition.lock()
        defer { condition.unlock() }
        while ready.isEmpty && !finished { condition.wait() }
        if !ready.isEmpty {
            condition.broadcast()
            return ready.removeFirst()
        }
        if let failure { throw failure }
        return nil
    }

    /// Stops the reading thread (the reader is done with the log).
    func cancel() {
        condition.lock()
        cancelled = true
        condition.broadcast()
        condition.unlock()
    }

    private func produce(_ log: URL, segment: DetectionStore.Segment?, header: DetectionLogHeader?, length: Int?) {
        do {
            let lines = try LogLines(log, from: segment.map { ($0.offset, $0.line) } ?? (0, 1), length: length)
            var reader = DetectionResultLog.Lines(url: log, header: segment == nil ? nil : header)
            var batch: [DetectionResult] = []
            batch.reserveCapacity(Self.batchSize)
            while let line = try lines.next() {
                guard let result = try reader.result(lines.lineNumber, line) else { continue }
                batch.append(result)
                if batch.count == Self.batchSize {
                    guard hand(batch) else { return }
                    batch.removeAll(keepingCapacity: true)
                }
            }
            if !batch.isEmpty { guard hand(batch) else { return } }
            end(nil)
        } catch {
            end(error)
        }
    }

    /// Waits for room and hands `batch` over; false when the reader cancelled.
    private func hand(_ batch: [DetectionResult]) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while ready.count >= Self.ahead && !cancelled { condition.wait() }
        if cancelled { return false }
        ready.append(batch)
        condition.broadcast()
        return true
    }

    private func end(_ error: (any Error)?) {
        condition.lock()
        finished = true
        failure = error
        condition.broadcast()
        condition.unlock()
    }
}
