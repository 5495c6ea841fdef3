import Foundation
import Synchronization

/// Lines read from a file handle on a background thread, awaited one at a time with a deadline.
/// Used to talk to child processes without ever blocking a Swift concurrency thread.
package final class LineChannel: Sendable {
    private enum Delivery { case line(String), endOfFile, timedOut }

    private struct State {
        var lines: [String] = []
        var closed = false
        var waiter: CheckedContinuation<Delivery, Never>?
        var waiterID = 0
    }

    private let state = Mutex(State())

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
                buffer.append(chunk)
                var lineStart = buffer.startIndex
                while let newline = buffer[searchFrom...].firstIndex(of: 0x0A) {
                    deliver(String(decoding: buffer[lineStart..<newline], as: UTF8.self))
                    lineStart = newline + 1
                    searchFrom = lineStart
                }
                if lineStart > buffer.startIndex { buffer.removeSubrange(buffer.startIndex..<lineStart) }
            }
            if !buffer.isEmpty { deliver(String(decoding: buffer, as: UTF8.self)) }
            close()
        }
        thread.start()
    }

    private func deliver(_ line: String) {
        let waiter = state.withLock { state -> CheckedContinuation<Delivery, Never>? in
            if let waiter = state.waiter {
                state.waiter = nil
                return waiter
            }
            state.lines.append(line)
            return nil
        }
        waiter?.resume(returning: .line(line))
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
                if !state.lines.isEmpty { return (.line(state.lines.removeFirst()), 0) }
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
        }
    }
}

struct LineChannelTimeout: Error {}
