
/// One server of a pooled run as its provenance records it: label, URL (credentials removed), its own
/// machine calibration, and whether it failed and how many item × repeat units moved off it.
public struct PoolServer: Sendable, Codable, Hashable {
    public var label: String
    public var url: String
    /// Measured at the start and (when it was still live) the end of the run, like a one-server run's.
    public var calibration: MachineCalibration?
    public var failed: Bool
    /// Item × repeat units dealt to the other servers when this one failed (the one in flight included).
    public var unitsMoved: Int

    public init(label: String, url: String, calibration: MachineCalibration?, failed: Bool = false, unitsMoved: Int = 0) {
        self.label = label
        self.url = url
        self.calibration = calibration
        self.failed = failed
        self.unitsMoved = unitsMoved
    }

    enum CodingKeys: String, CodingKey {
        case label, url, calibration, failed, unitsMoved = "units_moved"
    }
}
