import Support
import Foundation
import Provenance

/// Latency of a pooled run server by server, and whether the servers may be pooled at all: only when
/// their machine calibrations lie within `MachineAdjustment.margin` of each other in every component
/// (fixed request, prompt processing, generation), the same bound two runs must meet to be compared. Otherwise a pooled percentile mixes machines and depends on the dealing.
package struct PoolLatency: Sendable, Hashable, Codable {
    /// One server × route: model-reply latency over the reference variant's records.
    package struct Row: Sendable, Hashable, Codable {
        package var server: String
        package var route: Route
        package var n: Int
        package var modelReplies: Int
        package var latency: LatencySummary?
        package var ttftP50: Double?
        /// Records whose item moved here from a failed server.
        package var reassigned: Int
        /// Median of the server's calibration request, ms (nil: not calibrated).
        package var calibrationMs: Double?

        enum CodingKeys: String, CodingKey {
            case server, route, n, modelReplies = "model_replies", latency, ttftP50 = "ttft_p50_ms", reassigned, calibrationMs = "calibration_ms"
        }
    }

    /// Two servers whose calibrations differ beyond the margin in one component (`MachineAdjustment`).
    package struct Disagreement: Sendable, Hashable, Codable {
        package var servers: [String]
        /// `fixed request`, `prompt processing` or `generation`.
        package var component: String
        /// The second server's over the first's.
        package var factor: Double

        /// `"server-1 and server-2 differ by ×1.40 in prompt processing, beyond ×1.25"`.
        package var reason: String {
            String(format: "%@ and %@ differ by ×%.2f in %@, beyond ×%.2f", servers[0], servers[1], factor, component, MachineAdjustment.margin)
        }
    }

    package var rows: [Row]
    /// Slowest over fastest server calibration median (nil: fewer than two servers calibrated).
    package var calibrationRatio: Double?
    package var margin: Double
    /// The first pair of servers beyond the margin in some component (nil: every pair agrees, or too few calibrated).
    package var disagreement: Disagreement?
    /// Servers that recorded replies without a calibration (an OpenAI-compatible API reports no server
    /// timings to calibrate with): whether they are alike is not known, so they are not pooled.
    package var uncalibrated: [String]?
    /// Whether the run's pooled latency figures stand (false: only the per-server ones do).
    package var pooled: Bool

    enum CodingKeys: String, CodingKey { case rows, calibrationRatio = "calibration_ratio", margin, disagreement, uncalibrated, pooled }

    /// Nil for a run on one server.
    package init?(servers: [PoolServer]?, records: [GenerationRecord]) {
        guard let servers, !servers.isEmpty else { return nil }
        let medians = servers.compactMap { $0.calibration.map(\.medianMs) }.filter { $0 > 0 }
        margin = MachineAdjustment.margin
        calibrationRatio = medians.count >= 2 ? medians.max()! / medians.min()! : nil
        disagreement = Self.disagreement(servers)
        rows = Self.rows(servers: servers, records: records)
        let serving = Set(rows.map(\.server))
        let unknown = servers.filter { serving.contains($0.label) && ($0.calibration?.samples.isEmpty ?? true) }.map(\.label)
        uncalibrated = unknown.isEmpty ? nil : unknown
        pooled = disagreement == nil && unknown.isEmpty
    }

    /// Every pair of calibrated servers compared per component, as `compare` compares two runs' machines.
    static func disagreement(_ servers: [PoolServer]) -> Disagreement? {
        let calibrated = servers.compactMap { server in server.calibration.flatMap { $0.samples.isEmpty ? nil : (server.label, $0) } }
        for (i, first) in calibrated.enumerated() {
            for second in calibrated.dropFirst(i + 1) {
                let adjustment = MachineAdjustment(basis: .calibrated, base: first.1, current: second.1)
                if let (component, factor) = adjustment.beyondMargin() {
                    return Disagreement(servers: [first.0, second.0], component: component, factor: factor)
                }
            }
        }
        return nil
    }

    private static func rows(servers: [PoolServer], records: [GenerationRecord]) -> [Row] {
        let measured = records.filter { $0.fallbackReason != .crisisProtocol }
        return servers.flatMap { server -> [Row] in
            Route.allCases.compactMap { route -> Row? in
                let own = measured.filter { $0.server == server.label && $0.route == route }
                guard !own.isEmpty else { return nil as Row? }
                let model = own.filter { $0.outcome == .model }
                let ttft = model.compactMap(\.ttftMs)
                return Row(server: server.label, route: route, n: own.count, modelReplies: model.count, latency: LatencySummary(model.map(\.totalMs)),
                           ttftP50: ttft.isEmpty ? nil : Statistics.quantile(ttft, 0.5), reassigned: own.filter { $0.reassignedFrom != nil }.count,
                           calibrationMs: server.calibration?.medianMs)
            }
        }
    }

    /// What the pooled figures may be read as, one sentence.
    package var sentence: String {
        if let uncalibrated {
            return "⚠️ \(uncalibrated.joined(separator: ", ")) served replies without a calibration (an OpenAI-compatible API reports no "
                + "server timings), so whether the servers are alike is not known: latency is NOT pooled across them (the pooled latency "
                + "table is left out); read it per server below. Fallbacks, served rates and the paired ratios (each pair ran on one server) still stand."
        }
        guard let calibrationRatio else {
            return "Fewer than two servers served replies: latency per server below."
        }
        let ratio = String(format: "×%.2f", calibrationRatio), bound = String(format: "×%.2f", margin)
        guard let disagreement else {
            return "The servers' calibrations agree within \(bound) in every component (fixed request slowest/fastest \(ratio)): "
                + "latency is pooled across them, per server below."
        }
        return "⚠️ The servers' calibrations differ (\(disagreement.reason)): latency is NOT pooled across them (the pooled latency table is "
            + "left out, and `compare` does not judge it); read it per server below. Fallbacks, served rates and the paired ratios "
            + "(each pair ran on one server) still stand."
    }
}
