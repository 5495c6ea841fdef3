
/// One server of a pooled run as its provenance records it: label, URL (credentials removed), its own
/// machine calibration, and whether it failed and how many item × repeat units moved off it.
package struct PoolServer: Sendable, Codable, Hashable {
    package var label: String
    package var url: String
    /// Measured at the start and (when it was still live) the end of the run, like a one-server run's.
    package var calibration: MachineCalibration?
    package var failed: Bool
    /// Item × repeat units dealt to the other servers when this one failed (the one in flight included), not
    /// counting units an earlier run (resumed) had already recorded.
    package var unitsMoved: Int
    /// Why it failed, phase and kind of error (`PoolFailure`), e.g. `attach: connection refused`; nil when it
    /// did not fail (or in a run recorded before reasons were kept).
    package var failure: String?

    package init(label: String, url: String, calibration: MachineCalibration?, failed: Bool = false, unitsMoved: Int = 0, failure: String? = nil) {
        self.label = label
        self.url = url
        self.calibration = calibration
        self.failed = failed
        self.unitsMoved = unitsMoved
        self.failure = failure
    }

    enum CodingKeys: String, CodingKey {
        case label, url, calibration, failed, unitsMoved = "units_moved", failure
    }
}
