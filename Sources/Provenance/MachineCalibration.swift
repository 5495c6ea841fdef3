import Support
import Foundation

/// How fast the machine and server a run used were, measured by a fixed set of requests at the start
/// and the end of generation: the yardstick that makes latency from two machines comparable (or shows
/// that it is not). Recorded in the run's provenance.
package struct MachineCalibration: Sendable, Codable, Hashable {
    /// Version of the fixed request (prompt, lengths, settings). Calibrations of different versions
    /// measure different things and are never compared.
    /// 2: an item-like request (about 110 prompt tokens, 20 generated), timed by the client too; 1: a 58-token
    /// prompt and 16 tokens, server-timed.
    package static let currentVersion = 2

    /// One calibration request, timed by the server itself (its `timings`), so a change in LangBench's
    /// own client cannot move the yardstick.
    package struct Sample: Sendable, Codable, Hashable {
        /// `start` or `end` of the run (or of a block, after merging).
        package var phase: String
        package var promptTokens: Int
        package var promptMs: Double
        package var generatedTokens: Int
        package var generationMs: Double
        /// The part (block, shard or pool server) of a merged run whose calibration this sample was; nil before merging.
        package var part: Int?
        /// The whole request as the client timed it (sending, the server's work, the reply's arrival); nil before version 2.
        package var clientMs: Double?

        /// Prompt processing plus generation: the figure runs are scaled by.
        package var ms: Double { promptMs + generationMs }

        package init(phase: String, promptTokens: Int, promptMs: Double, generatedTokens: Int, generationMs: Double) {
            self.phase = phase
            self.promptTokens = promptTokens
            self.promptMs = promptMs
            self.generatedTokens = generatedTokens
            self.generationMs = generationMs
        }

        enum CodingKeys: String, CodingKey {
            case phase, promptTokens = "prompt_tokens", promptMs = "prompt_ms", generatedTokens = "generated_tokens", generationMs = "generation_ms"
            case part, clientMs = "client_ms"
        }
    }

    package var version: Int
    /// Server threads when LangBench started the server; nil when it attached to one.
    package var threads: Int?
    package var samples: [Sample]

    package init(version: Int = Self.currentVersion, threads: Int?, samples: [Sample]) {
        self.version = version
        self.threads = threads
        self.samples = samples
    }

    /// Median milliseconds of the fixed request.
    package var medianMs: Double { Statistics.quantile(samples.map(\.ms), 0.5) }
    /// Median prompt-processing and generation speeds, tokens per second.
    package var promptPerSecond: Double { Statistics.quantile(samples.map { Double($0.promptTokens) / $0.promptMs * 1000 }, 0.5) }
    package var generationPerSecond: Double { Statistics.quantile(samples.map { Double($0.generatedTokens) / $0.generationMs * 1000 }, 0.5) }
    /// Relative spread of the samples: (max − min) / median.
    package var spread: Double {
        let values = samples.map(\.ms)
        guard let low = values.min(), let high = values.max(), medianMs > 0 else { return .nan }
        return (high - low) / medianMs
    }

    /// One calibration from several (the blocks or shards of one run). Each sample keeps which part it came from, so
    /// that each part is judged on its own samples: parts measured minutes apart may differ by drift that no one
    /// part's samples show.
    package static func merged(_ parts: [MachineCalibration]) -> MachineCalibration? {
        guard let first = parts.first, parts.allSatisfy({ $0.version == first.version }) else { return nil }
        let threads = Set(parts.map(\.threads)).count == 1 ? first.threads : nil
        var samples: [Sample] = [], next = 0
        for part in parts {
            // A part that was itself merged keeps its own parts, numbered after those before it.
            let own = Set(part.samples.map { $0.part ?? 0 }).sorted()
            samples += part.samples.map { sample in
                var labelled = sample
                labelled.part = next + own.firstIndex(of: sample.part ?? 0)!
                return labelled
            }
            next += own.count
        }
        return MachineCalibration(version: first.version, threads: threads, samples: samples)
    }

    /// The samples of each part, in part order (one group before merging).
    package var parts: [[Sample]] {
        Dictionary(grouping: samples, by: { $0.part ?? 0 }).sorted { $0.key < $1.key }.map(\.value)
    }

    /// One line for reports.
    package var summary: String {
        let values = samples.map(\.ms)
        return String(format: "fixed request %.0f ms median (%.0f–%.0f, %d samples), prompt %.0f tok/s, generation %.1f tok/s",
                      medianMs, values.min() ?? .nan, values.max() ?? .nan, samples.count, promptPerSecond, generationPerSecond)
            + (threads.map { ", \($0) threads" } ?? "")
    }
}
