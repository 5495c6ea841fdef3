import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Process-wide list of the child processes this process launched, so every way out stops them.
///
/// Every launched server and `exec:` child registers here and has its own watchdog (which covers SIGKILL and
/// crashes); helper commands such as `llama-bench` register while they run.
/// `installSignalHandlers()` — called once by the CLI — adds an orderly stop on SIGINT, SIGTERM,
/// SIGHUP and at `exit()`, so the children are gone before the harness is.
package enum ServerReaper {
    /// Identifies one registration.
    package struct Token: Hashable, Sendable {
        fileprivate let value: UInt64
    }

    private struct Entry {
        let processID: Int32
        let stop: @Sendable () -> Void
    }

    private static let entries = Mutex<(next: UInt64, table: [Token: Entry])>((0, [:]))
    private static let sources = Mutex<[any DispatchSourceSignal]>([])
    private static let interruption = Atomic<Int32>(0)
    private static let interruptibleWork = Atomic<Int>(0)
    private static let cancellations = Mutex<(next: UInt64, table: [UInt64: @Sendable () -> Void])>((0, [:]))

    /// How long work running under `interruptible` may take to wind down after a signal before the
    /// process dies of it anyway (an attached server's request still in flight, say).
    package static let windDownSeconds = 10

    /// The signal being handled, from the moment the handler starts: stopping the servers makes
    /// in-flight requests fail, and the CLI uses this to report the interruption, not those failures.
    package static var interruptingSignal: Int32? {
        let value = interruption.load(ordering: .acquiring)
        return value == 0 ? nil : value
    }

    /// Stops all children on SIGINT, SIGTERM and SIGHUP, then dies of the same signal (so the exit
    /// status still says "interrupted"), and at `exit()`. Idempotent.
    package static func installSignalHandlers() {
        sources.withLock { sources in
            guard sources.isEmpty else { return }
            for signalNumber in [SIGINT, SIGTERM, SIGHUP] {
                // Dispatch delivers the signal on a queue only when its default action is disabled.
                signal(signalNumber, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
                source.setEventHandler {
                    // The flag first: work under `interruptible` records nothing once it is set, so the
                    // requests that fail because the servers are stopped next never become results.
                    interruption.store(signalNumber, ordering: .releasing)
                    // Decided now: the work may finish while the servers stop, and its exit must not race a kill.
                    let windsDown = interruptibleWork.load(ordering: .acquiring) > 0
                    for cancel in cancellations.withLock({ Array($0.table.values) }) { cancel() }
                    stopAll()
                    guard windsDown else { return dieOfPendingSignal() }
                    // That work stops itself and the command exits (then dies of the signal at exit);
                    // if it does not within the grace period, die anyway.
                    DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(windDownSeconds)) { dieOfPendingSignal() }
                }
                source.resume()
                sources.append(source)
            }
            // exit() may win the race with the handler (a request failed because its server was just
            // stopped): finish stopping, then still die of the signal so the status says "interrupted".
            atexit {
                ServerReaper.stopAll()
                ServerReaper.dieOfPendingSignal()
            }
        }
    }

    /// Runs work that checks `interruptingSignal` and stops by itself (recording nothing after the
    /// signal). While it runs, a signal cancels it (so requests in flight end at once, even to a server
    /// we do not own), stops the servers, and lets it wind down instead of killing the process at once.
    package static func interruptible<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) async throws -> T {
        let task = Task { try await body() }
        let token = cancellations.withLock { state in
            state.next += 1
            state.table[state.next] = { task.cancel() }
            return state.next
        }
        interruptibleWork.add(1, ordering: .releasing)
        defer {
            interruptibleWork.subtract(1, ordering: .releasing)
            _ = cancellations.withLock { $0.table.removeValue(forKey: token) }
        }
        if interruptingSignal != nil { task.cancel() }  // the signal came before the registration
        return try await withTaskCancellationHandler { try await task.value } onCancel: { task.cancel() }
    }

    /// Stops every registered child still running. Safe from any thread, any number of times.
    package static func stopAll() {
        let running = entries.withLock { Array($0.table.values) }
        for entry in running { entry.stop() }
    }

    private static func dieOfPendingSignal() {
        guard let signalNumber = interruptingSignal else { return }
        signal(signalNumber, SIG_DFL)
        kill(getpid(), signalNumber)
    }

    /// Process ids of the children currently registered (for diagnostics and tests).
    package static var runningProcessIDs: [Int32] {
        entries.withLock { $0.table.values.map(\.processID) }
    }

    package static func register(processID: Int32, stop: @escaping @Sendable () -> Void) -> Token {
        entries.withLock { state in
            state.next += 1
            let token = Token(value: state.next)
            state.table[token] = Entry(processID: processID, stop: stop)
            return token
        }
    }

    package static func unregister(_ token: Token) {
        _ = entries.withLock { $0.table.removeValue(forKey: token) }
    }
}
