import Support
import Foundation
import Backend

/// Test-only fault injection for measuring the CI job's power: every model call takes `factor` times
/// as long (the call, then a sleep of (factor − 1) × its duration, inside the timed region). Enabled
/// only by the `LANGBENCH_TEST_SLOWDOWN` environment variable; recorded in the report's settings. With
/// `LANGBENCH_TEST_SLOWDOWN_ABOVE_MS` only calls that took at least that long are slowed: a slower tail, the
/// rest of the run unchanged.
package struct InjectedSlowdown: TextCompleting {
    package static let environmentKey = "LANGBENCH_TEST_SLOWDOWN"
    package static let aboveKey = "LANGBENCH_TEST_SLOWDOWN_ABOVE_MS"

    package var wrapped: any TextCompleting
    package var factor: Double
    /// Only calls at least this long are slowed; nil: every call.
    package var aboveMs: Double?

    package init(wrapping wrapped: any TextCompleting, factor: Double, aboveMs: Double? = nil) {
        self.wrapped = wrapped
        self.factor = factor
        self.aboveMs = aboveMs
    }

    /// `LANGBENCH_TEST_SLOWDOWN_ABOVE_MS`: nil when unset, an error when not a positive number of milliseconds.
    package static func aboveMs(environment: [String: String]) throws -> Double? {
        guard let raw = environment[aboveKey] else { return nil }
        guard let ms = Double(raw), ms > 0, ms.isFinite else {
            throw ConfigurationError.invalidValue(name: aboveKey, value: raw, reason: "expected a call duration in milliseconds above 0, e.g. 1500")
        }
        return ms
    }

    /// The factor from the environment: nil when unset, an error when not a number in (1, 10].
    package static func factor(environment: [String: String]) throws -> Double? {
        try factor(environment, key: environmentKey, maximum: 10)
    }

    /// A test-only factor in (1, `maximum`] read from `key`: nil when unset, an error when out of range.
    static func factor(_ environment: [String: String], key: String, maximum: Int) throws -> Double? {
        guard let raw = environment[key] else { return nil }
        guard let factor = Double(raw), factor > 1, factor <= Double(maximum) else {
            throw ConfigurationError.invalidValue(name: key, value: raw, reason: "expected a latency factor in (1, \(maximum)], e.g. 1.5")
        }
        return factor
    }

    package func complete(_ request: CompletionRequest) async throws -> Completion {
        let clock = ContinuousClock()
        let start = clock.now
        let completion = try await wrapped.complete(request)
        let took = clock.now - start
        if let aboveMs, took.milliseconds < aboveMs { return completion }
        try await Task.sleep(for: took * (factor - 1))
        return completion
    }
}
