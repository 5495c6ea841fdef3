import Foundation
import Synchronization

/// Lines read from a file handle on a background thread, awaited one at a time with a deadline.
/// Used to talk to child processes without ever blocking a Swift concurrency thread.
package final class LineChannel: Sendable {
    private enum Delivery { case line(String), endOfFile, timedOut, overflowed }

    private struct State {
        var lines: [String] = []
        /// Bytes of the lines not yet taken.
        var pending = 0
        /// More was written than `maxPendingBytes`: the rest is read and dropped, and `next` throws.
        var overflowed = false
        var closed = false
        var waiter: CheckedContinuation<Delivery, Never>?
        var waiterID = 0
    }

    private let state = Mutex(State())
    /// The most output held unread, a line being read included: a child flooding its output is an error, not memory.
    package static let maxPendingBytes = 16 << 20

    /// Starts reading `handle` until end of file.
    package init(reading handle: FileHandle) {
        let thread = Thread { [self] in
            var buffer = Data()
            while true {
                // A read error ends the stream like end of file: the reader sees the channel close.
                guard let chunk = try? POSIXIO.read(from: handle.fileDescriptor), !chunk.isEmpty else { break }
                // Only the new bytes are searched, and consumed lines are removed once per chunk: reading
                // is linear in the output, however long its lines (a 10 MB line took 20 s when every chunk
                // rescanned and shifted the whole buffer).
                var searchFrom = buffer.endIndex
                if state.withLock({ $0.overflowed }) { continue }
                buffer.append(chunk)
                var lineStart = buffer.startIndex
                while let newline = buffer[searchFrom...].firstIndex(of: 0x0A) {
                    deliver(String(decoding: buffer[lineStart..<newline], as: UTF8.self))
                    lineStart = newline + 1
                    searchFrom = lineStart
                }
                if lineStart > buffer.startIndex { buffer.removeSubrange(buffer.startIndex..<lineStart) }
                if buffer.count > Self.maxPendingBytes { overflow(); buffer = Data() }
            }
            if !buffer.isEmpty { deliver(String(decoding: buffer, as: UTF8.self)) }
            close()
        }
        thread.start()
    }

    private func deliver(_ line: String) {
        let waiter = state.withLock { state -> CheckedContinuation<Delivery, Never>? in
            if state.overflowed { return nil }
            if let waiter = state.waiter {
                state.waiter = nil
                return waiter
            }
            state.lines.append(line)
            state.pending += line.utf8.count
            if state.pending > Self.maxPendingBytes { state.overflowed = true; state.lines = [] }
            return nil
        }
        waiter?.resume(returning: .line(line))
    }

    private func overflow() {
        let waiter = state.withLock { state -> CheckedContinuation<Delivery, Never>? in
            state.overflowed = true
            state.lines = []
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: .overflowed)
    }

    private func close() {
        let waiter = state.withLock { state -> CheckedContinuation<Delivery, Never>? in
            state.closed = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: .endOfFile)
    }

    /// The next line; nil at end of file. Throws `LineChannelTimeout` when none arrives in time.
    package func next(timeout: Duration) async throws -> String? {
        let delivery = await withCheckedContinuation { (continuation: CheckedContinuation<Delivery, Never>) in
            let (immediate, waiterID): (Delivery?, Int) = state.withLock { state in
                if state.overflowed { return (.overflowed, 0) }
                if !state.lines.isEmpty {
                    let line = state.lines.removeFirst()
                    state.pending -= line.utf8.count
                    return (.line(line), 0)
                }
                if state.closed { return (.endOfFile, 0) }
                state.waiterID += 1
                state.waiter = continuation
                return (nil, state.waiterID)
            }
            if let immediate { continuation.resume(returning: immediate); return }
            DispatchQueue.global().asyncAfter(deadline: .now() + timeout.seconds) { [self] in
                let expired = state.withLock { state -> CheckedContinuation<Delivery, Never>? in
                    guard state.waiterID == waiterID, let waiter = state.waiter else { return nil }
                    state.waiter = nil
                    return waiter
                }
                expired?.resume(returning: .timedOut)
            }
        }
        switch delivery {
        case .line(let line): return line
        case .endOfFile: return nil
        case .timedOut: throw LineChannelTimeout()
        case .overflowed: throw LineChannelOverflow()
        }
    }
}

struct LineChannelTimeout: Error {}

/// The child wrote more than `LineChannel.maxPendingBytes` that was not read.
package struct LineChannelOverflow: Error, CustomStringConvertible {
    package var description: String { "wrote more than \(LineChannel.maxPendingBytes >> 20) MiB unread" }
}
