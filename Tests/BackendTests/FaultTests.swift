import Foundation
import Testing
@testable import Backend

extension IntegrationTests {
    @Suite struct Faults {
        @Test func serverKilledMidRequestIsATypedErrorNotAHang() async throws {
            let server = try await TestBackend.launch()
            defer { server.stop() }
            let pid = try #require(server.processID)
            let request = CompletionRequest(prompt: "Count to a thousand:", maxTokens: 2000, stop: [], ignoreEOS: true)
            let client = server.client(requestTimeout: 60)
            let start = ContinuousClock.now
            async let outcome: BackendError? = backendError { _ = try await client.complete(request) }
            try await Task.sleep(for: .milliseconds(700))
            kill(pid, SIGKILL)
            let error = await outcome
            #expect(ContinuousClock.now - start < .seconds(10))
            switch error {
            case .streamCutOff, .connectionRefused: break
            default: Issue.record("expected streamCutOff, got \(String(describing: error))")
            }
        }
    }
}
