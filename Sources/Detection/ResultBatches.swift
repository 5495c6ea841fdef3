import Support
import Dispatch
import Foundation
import ByteIO
import Synchronization

/// A results log read and parsed on a thread of its own, a batch of results ahead of the reader
/// (`DetectionStore.Cursor`): parsing rows is most of the work of reading a log, and `compare` and
/// `merge` read two or more logs at once, so each is parsed on its own core while the caller pairs or
/// writes. At most `ahead` batches wait: memory stays a few batches, whatever the log's size.
final class ResultBatches: Sendable {
    static let batchSize = 4096
    static let ahead = 2

    private struct State {
        var ready: [[DetectionResult]] = []
        var failure: (any Error)?
        var cancelled = false
    }

    private let state = Mutex(State())
    /// One signal per batch handed over, and one at the end (passed on, so every later `next` sees the end).
    private let handed = DispatchSemaphore(value: 0)
    /// Room for `ahead` batches; a batch taken (or a cancel) makes room.
    private let room = DispatchSemaphore(value: ResultBatches.ahead)

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
        handed.wait()
        let (batch, failure) = state.withLock { state -> ([DetectionResult]?, (any Error)?) in
            guard state.ready.isEmpty else { return (state.ready.removeFirst(), nil) }
            return (nil, state.failure)
        }
        guard let batch else {
            handed.signal()  // the end, for the next call too
            if let failure { throw failure }
            return nil
        }
        room.signal()
        return batch
    }

    /// Stops the reading thread (the reader is done with the log).
    func cancel() {
        state.withLock { $0.cancelled = true }
        room.signal()
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
        room.wait()
        let handedOver = state.withLock { state -> Bool in
            guard !state.cancelled else { return false }
            state.ready.append(batch)
            return true
        }
        if handedOver { handed.signal() } else { room.signal() }  // a cancel's signal is passed on
        return handedOver
    }

    private func end(_ error: (any Error)?) {
        state.withLock { $0.failure = error }
        handed.signal()
    }
}
