import Foundation
import Testing

/// What a test needs beyond values in memory: the mark that keeps it out of the fast lane.
///
/// `scripts/test --fast` sets `LANGBENCH_LANE=fast`; every test or suite marked `.needs(…)` is then skipped, with
/// the need in its skip message (the script counts skips by need). It also points the paths of the llama-server,
/// model, APy, Chromium and the `langbench` child at nothing, so an unmarked test that reaches for one fails in the
/// fast lane instead of running slowly. `scripts/test` (CI) runs every test; there a missing server fails.
///
/// Swift 6.3's `swift test` cannot select tests by tag (`--skip tag:` comes later), so the lane is a condition.
public enum Need: String, Sendable, CaseIterable {
    /// A real llama-server and the model.
    case server
    /// A real Apertium APy.
    case apertium
    /// Headless Chromium.
    case browser
    /// A child `langbench` process, a whole CI job or a set-up script.
    case child
    /// A simulation or a large input: arithmetic that takes seconds, measured, not a behaviour.
    case simulation

    /// The lane this test process runs in.
    public static let fastLane = ProcessInfo.processInfo.environment["LANGBENCH_LANE"] == "fast"
}

extension Trait where Self == ConditionTrait {
    /// Runs the test or suite only outside the fast lane.
    public static func needs(_ need: Need) -> Self {
        .enabled("fast lane skips [\(need.rawValue)]") { !Need.fastLane }
    }
}
