import Support
import Foundation

extension BackendBenchReport {
    /// A short Markdown summary: the speeds side by side, the ratios, what each client costs, provenance.
    package var markdown: String {
        func number(_ value: Double, _ digits: Int = 1) -> String { String(format: "%.\(digits)f", value) }
        func row(_ name: String, _ speed: SpeedComparison) -> String {
            "| \(name) | \(number(speed.clientPerSecond)) | \(number(speed.serverPerSecond)) | "
                + "\(number(speed.llamaBenchPerSecond)) | \(number(speed.clientToServer, 3)) | \(number(speed.serverToLlamaBench, 3)) |"
        }
        let tg = "tg\(settings.generatedTokens)"
        let rows = [row("pp\(promptTokens)", promptProcessing), row(tg, generation)]
            + (generationOpenAI.map { [row("\(tg) via /v1/completions", $0)] } ?? [])
            + (generationURLSession.map { [row("\(tg) via URLSession", $0)] } ?? [])
        return """
            # Backend speed

            | test | client tok/s | server tok/s | llama-bench tok/s | client/server | server/llama-bench |
            | --- | ---: | ---: | ---: | ---: | ---: |
            \(rows.joined(separator: "\n"))

            Harness overhead per request (median client wall time minus server prompt and generation time): \
            \(number(overheadMs, 2)) ms.

            \(clientTable)Medians of \(settings.repetitions) rounds (server pp, then the tg request natively, through /v1/completions \
            and through URLSession, taking turns to go first, then llama-bench -r 1) after one warm-up, \
            \(settings.threads) threads, one slot. \
            Client pp = prompt tokens / time to the first token event; client tg = (token events - 1) / time from \
            the first to the last token event, the same definition as the server's `predicted_per_second`; \
            through `/v1/completions` a token event is a streamed chunk with text.

            Model \(ReportText.code(model)); server build \(ReportText.code(serverBuild)); llama-bench build \(ReportText.code(llamaBenchBuild)).

            """
    }

    /// One row per way of sending the tg request: overhead, client CPU, wall time against the native socket request.
    private var clientTable: String {
        guard !clients.isEmpty else { return "" }
        func ms(_ value: Double?) -> String { value.map { String(format: "%.2f", $0) } ?? "" }
        func ratio(_ cost: ClientCost) -> String {
            guard let value = cost.wallRatio, let low = cost.wallRatioLow, let high = cost.wallRatioHigh else { return "" }
            return String(format: "%.3f (%.3f–%.3f)", value, low, high)
        }
        let rows = clients.map { "| \($0.label) | \($0.requests) | \(ms($0.overheadMs)) | \(ms($0.clientCPUMs)) | \(ratio($0)) |" }
        return """
            | tg request through | requests | overhead ms | client CPU ms | wall time vs socket, /completion |
            | --- | ---: | ---: | ---: | ---: |
            \(rows.joined(separator: "\n"))

            Overhead: median client wall time minus server prompt and generation time. Client CPU: median CPU time \
            of this process across one request. Wall-time ratio: geometric mean of each round's ratio to the native \
            request over the socket client, 95% bootstrap interval.


            """
    }
}
