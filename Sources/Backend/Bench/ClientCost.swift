import Support
import Foundation

/// What one way of sending `bench backend`'s generation request costs the harness, over the rounds.
package struct ClientCost: Sendable, Equatable, Codable {
    package var kind: BenchRequest.Kind
    package var requests: Int
    /// Median client wall time not spent in the server's prompt or generation work.
    package var overheadMs: Double
    /// Median CPU time of this process across one request (nil when it could not be read).
    package var clientCPUMs: Double?
    /// Wall time over the native socket request's in the same round: the geometric mean of the
    /// rounds' ratios with a 95% bootstrap interval (nil with fewer than two rounds).
    package var wallRatio: Double?
    package var wallRatioLow: Double?
    package var wallRatioHigh: Double?

    package init(kind: BenchRequest.Kind, requests all: [BenchRequest]) {
        let mine = all.filter { $0.kind == kind }
        self.kind = kind
        requests = mine.count
        overheadMs = mine.map(\.overheadMs).median ?? 0
        clientCPUMs = mine.compactMap(\.clientCPUMs).median
        let native = Dictionary(all.filter { $0.kind == .generation }.map { ($0.repetition, $0.client.wallMs) },
                                uniquingKeysWith: { first, _ in first })
        // Paired by round: both requests met the same state of the machine.
        let logRatios = mine.compactMap { request in
            native[request.repetition].flatMap { $0 > 0 && request.client.wallMs > 0 ? log(request.client.wallMs / $0) : nil }
        }
        guard logRatios.count >= 2 else { return }
        wallRatio = exp(Statistics.mean(logRatios))
        let means = Statistics.bootstrapMeans(logRatios)
        wallRatioLow = exp(Statistics.quantile(sorted: means, 0.025))
        wallRatioHigh = exp(Statistics.quantile(sorted: means, 0.975))
    }

    /// Who carries the request, and to which endpoint.
    package var label: String {
        switch kind {
        case .promptProcessing, .generation: "socket client, /completion"
        case .generationOpenAI: "socket client, /v1/completions"
        case .generationURLSession: "URLSession, /completion"
        }
    }
}
