import BenchSupport
import Foundation

extension BackendBenchReport {
    /// A short Markdown summary: the three speeds side by side, the ratios, the overhead, provenance.
    public var markdown: String {
        func number(_ value: Double, _ digits: Int = 1) -> String { String(format: "%.\(digits)f", value) }
        func row(_ name: String, _ speed: SpeedComparison) -> String {
            "| \(name) | \(number(speed.clientPerSecond)) | \(number(speed.serverPerSecond)) | "
                + "\(number(speed.llamaBenchPerSecond)) | \(number(speed.clientToServer, 3)) | \(number(speed.serverToLlamaBench, 3)) |"
        }
        let rows = [row("pp\(promptTokens)", promptProcessing), row("tg\(settings.generatedTokens)", generation)]
            + (generationOpenAI.map { [row("tg\(settings.generatedTokens) via /v1/completions", $0)] } ?? [])
        return """
            # Backend speed

            | test | client tok/s | server tok/s | llama-bench tok/s | client/server | server/llama-bench |
            | --- | ---: | ---: | ---: | ---: | ---: |
            \(rows.joined(separator: "\n"))

            Harness overhead per request (median client wall time minus server prompt and generation time): \
            \(number(overheadMs, 2)) ms.

            Medians of \(settings.repetitions) rounds (server pp, server tg, server tg through /v1/completions, llama-bench -r 1) after one warm-up, \
            \(settings.threads) threads, one slot. \
            Client pp = prompt tokens / time to the first token event; client tg = (token events - 1) / time from \
            the first to the last token event, the same definition as the server's `predicted_per_second`; \
            through `/v1/completions` a token event is a streamed chunk with text.

            Model \(ReportText.code(model)); server build \(ReportText.code(serverBuild)); llama-bench build \(ReportText.code(llamaBenchBuild)).

            """
    }
}
