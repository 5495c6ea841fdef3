import Provenance

/// Test-only fault injection: the machine calibration's `start` samples take `factor` times as long, as
/// when the machine was loaded during the run's first minute — load a test cannot produce on demand at a
/// known size. The calibration is timed by the server, so the server's timings of those samples are
/// multiplied as they are recorded (no time is spent). Enabled only by the `LANGBENCH_TEST_CALIBRATION_LOAD`
/// environment variable; recorded in the report's settings.
package struct InjectedCalibrationLoad: Sendable, Hashable {
    package static let environmentKey = "LANGBENCH_TEST_CALIBRATION_LOAD"
    /// Eight busy processes in a run's first minute slowed the fixed request 28–42×.
    static let maximum = 100

    package var factor: Double

    package init(factor: Double) {
        self.factor = factor
    }

    /// The load from the environment: nil when unset, an error when not a number in (1, 100].
    package static func from(environment: [String: String]) throws -> InjectedCalibrationLoad? {
        try InjectedSlowdown.factor(environment, key: environmentKey, maximum: maximum).map(InjectedCalibrationLoad.init)
    }

    /// `sample` as if measured under the load when it is a start sample; end samples are left alone.
    func apply(_ sample: MachineCalibration.Sample) -> MachineCalibration.Sample {
        guard sample.phase == "start" else { return sample }
        var loaded = sample
        loaded.promptMs *= factor
        loaded.generationMs *= factor
        return loaded
    }
}
