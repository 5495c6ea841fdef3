import Foundation
import Backend

/// Tells a failure the app would see from a server that died under the benchmark, and brings a
/// launched server back (at most `maxRestarts` times). A reply that failed because the server died is
/// redone on the restarted server, never recorded as a `model-unavailable` fallback.
package actor ServerRecovery {
    /// What to do with a reply that failed with `model-unavailable`.
    package enum Verdict: Sendable, Equatable {
        /// The server is up and answering: the failure is real, record it.
        case record
        /// The server died and now runs again: redo the reply.
        case retry
    }

    package let server: LlamaServer
    package let maxRestarts: Int
    /// Restarts so far.
    package private(set) var restarts = 0
    /// Changes at every restart, so replies that failed with the old process are redone, not judged again.
    package private(set) var epoch = 0

    package init(server: LlamaServer, maxRestarts: Int = 2) {
        self.server = server
        self.maxRestarts = maxRestarts
    }

    /// Judges a `model-unavailable` failure of a reply started in `epoch` `seen`.
    package func judge(seen: Int, stopSignal: @Sendable () -> Int32?) async throws -> Verdict {
        if seen != epoch { return .retry }
        if await isAlive() { return .record }
        if let signal = stopSignal() { throw GenerationStopped.Cause.signal(signal) }
        let url = server.baseURL.absoluteString + (server.logFile.map { ", log \($0.lastPathComponent)" } ?? "")
        guard server.isManaged else { throw GenerationStopped.Cause.serverLost("the server at \(url) stopped answering /health") }
        guard restarts < maxRestarts else {
            throw GenerationStopped.Cause.serverLost("the server at \(url) died again after \(restarts) restart(s), the most allowed")
        }
        // A restart that does not come up uses up one of the allowed restarts too.
        while true {
            restarts += 1
            do {
                try await server.restart()
                break
            } catch {
                if let signal = stopSignal() { throw GenerationStopped.Cause.signal(signal) }
                guard restarts < maxRestarts else { throw GenerationStopped.Cause.serverLost("restart \(restarts) of the server at \(url) failed: \(error)") }
            }
        }
        // A signal that came during the restart stopped every server, the new one included.
        if let signal = stopSignal() { throw GenerationStopped.Cause.signal(signal) }
        epoch += 1
        return .retry
    }

    /// A launched process that is gone is dead whatever `/health` says; otherwise `/health` decides.
    /// A process killed a moment ago may still look alive until it is reaped, so a refused
    /// connection is retried for a second.
    private func isAlive() async -> Bool {
        let client = server.client()
        for _ in 0..<10 {
            guard server.isRunning else { return false }
            do {
                try await client.health(timeout: 2)
                return true
            } catch BackendError.connectionRefused, BackendError.streamCutOff, BackendError.transport {
                try? await Task.sleep(for: .milliseconds(100))  // only cancellation throws, and then the next check ends the wait
            } catch {
                return server.isRunning
            }
        }
        return false
    }
}
