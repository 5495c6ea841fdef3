import Foundation

/// One server of a pool: its label in records and reports, the lanes (one per variant) whose pipelines
/// talk to it, what judges its failures, and what calibrates it at the start and end of the run.
package struct PoolMember: Sendable {
    /// `server-1`, `server-2`, … in `--server-url` order: never the URL, which may carry a credential.
    package var label: String
    /// Its URL as reports may show it (`ServerSource.redacted`).
    package var url: String
    package var lanes: [GenerationRunner.Lane]
    /// Per lane, what tells a dead server from a failed reply; a dead pool server is not restarted, its items move.
    package var recoveries: [ServerRecovery]
    package var calibrator: MachineCalibrator?
    /// Why it did not answer when the run attached to it (`PoolFailure`): failed before any item is dealt.
    package var attachFailure: String?

    package init(label: String, url: String, lanes: [GenerationRunner.Lane], recoveries: [ServerRecovery], calibrator: MachineCalibrator?,
                attachFailure: String? = nil) {
        self.label = label
        self.url = url
        self.lanes = lanes
        self.recoveries = recoveries
        self.calibrator = calibrator
        self.attachFailure = attachFailure
    }

    /// The label of the server at `index` (0-based) in `--server-url` order.
    package static func label(_ index: Int) -> String { "server-\(index + 1)" }
}
