import Foundation
import Testing
@testable import Backend

/// A helper command that outlives its deadline is killed and reported.
/// (Foundation missing a child's exit, which the bounded wait after the kill guards against, cannot be
/// produced on demand; this checks the path it sits on.)
@Test func aHelperPastItsDeadlineIsKilledAndReported() async throws {
    do {
        _ = try await ProcessRunner.run("/bin/sleep", ["30"], timeout: 0.3)
        Issue.record("a 30 s sleep finished within 0.3 s")
    } catch BackendError.commandFailed(let command, let reason, _) {
        #expect(command == "/bin/sleep 30")
        #expect(reason == "did not finish within 0.3 s")
    }
}

@Test func aHelperThatFinishesGivesItsStatusAndOutput() async throws {
    let output = try await ProcessRunner.run("/bin/sh", ["-c", "echo out; echo err >&2; exit 3"], timeout: 10)
    #expect(output.status == 3)
    #expect(output.standardOutput == "out\n")
    #expect(output.standardError == "err\n")
}
