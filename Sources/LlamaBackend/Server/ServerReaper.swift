import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Process-wide list of the servers this process launched, so every way out stops them.
///
/// Every launched server is registered here and has its own watchdog (which covers SIGKILL and
/// crashes). `installSignalHandlers()` — called once by the CLI — adds an orderly stop on SIGINT,
/// SIGTERM, SIGHUP and at `exit()`, so the server is gone before the harness is.
public enum ServerReaper {
    private static let servers = Mutex<[ObjectIdentifier: ManagedProcess]>([:])
    private static let sources = Mutex<[any DispatchSourceSignal]>([])

    /// Stops all servers on SIGINT, SIGTERM and SIGHUP, then dies of the same signal (so the exit
    /// status still says "interrupted"), and at `exit()`. Idempotent.
    public static func installSignalHandlers() {
        sources.withLock { sources in
            guard sources.isEmpty else { return }
            for signalNumber in [SIGINT, SIGTERM, SIGHUP] {
                signal(signalNumber, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
                source.setEventHandler {
                    stopAll()
                    signal(signalNumber, SIG_DFL)
                    kill(getpid(), signalNumber)
                }
                source.resume()
                sources.append(source)
            }
            atexit { ServerReaper.stopAll() }
        }
    }

    /// Stops every server still running. Safe to call from any thread, any number of times.
    public static func stopAll() {
        let running = servers.withLock { Array($0.values) }
        for server in running { server.stop() }
    }

    /// Process ids of the servers currently registered (for diagnostics and tests).
    public static var runningProcessIDs: [Int32] {
        servers.withLock { $0.values.map(\.processID) }
    }

    static func register(_ process: ManagedProcess) {
        servers.withLock { $0[ObjectIdentifier(process)] = process }
    }

    static func unregister(_ process: ManagedProcess) {
        servers.withLock { $0[ObjectIdentifier(process)] = nil }
    }
}
