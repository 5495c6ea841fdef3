import Foundation

extension LlamaServer {
    /// Polls `/health` until it answers 200, the process exits, or `timeout` seconds pass.
    func waitUntilHealthy(_ managed: ManagedProcess, timeout: Double) async throws {
        let client = LlamaClient(baseURL: baseURL)
        let deadline = ContinuousClock.now + .milliseconds(Int(timeout * 1000))
        while true {
            guard managed.isRunning else {
                throw failure("llama-server exited (\(managed.terminationDescription)) before /health answered")
            }
            do {
                try await client.health(timeout: 2)
                return
            } catch BackendError.serverLoading, BackendError.connectionRefused, BackendError.timeout {
                // Still binding the port or loading the model: keep polling until the deadline.
            } catch let error as BackendError {
                throw failure("/health failed: \(error)")
            }
            guard ContinuousClock.now < deadline else {
                throw failure("/health did not answer 200 within \(timeout) s")
            }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    private func failure(_ reason: String) -> BackendError {
        .startFailed(reason: reason, logTail: logTail(lines: 20), logFile: logFile?.path)
    }
}
