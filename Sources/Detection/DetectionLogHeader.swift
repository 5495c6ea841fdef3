import Support
import Foundation

/// The first line of `detection-results.jsonl`: what the logged results were measured with, so that
/// `--resume` can refuse to mix them with results of other configs or settings. It names the rows' columns
/// (`DetectionResultLine.columns`).
package struct DetectionLogHeader: Sendable, Hashable, Codable {
    static let formatVersion = 3

    /// Settings outside the configs that change results.
    package struct Settings: Sendable, Hashable, Codable {
        /// The built-in recognizer's model file's content hash (`ModelHash`), when a config uses `builtin`.
        package var recognizerModelHash: String?
        /// Per-item timeout of `exec:` detectors in seconds, when a config uses one.
        package var execTimeoutSeconds: Double?

        package init(recognizerModelHash: String? = nil, execTimeoutSeconds: Double? = nil) {
            self.recognizerModelHash = recognizerModelHash
            self.execTimeoutSeconds = execTimeoutSeconds
        }

        /// The settings of a run whose built-in recognizer reads the model file at `recognizerModel` (nil when
        /// no config uses `builtin`), hashed here so that which hash the log keeps stays this target's choice.
        package init(recognizerModelAt recognizerModel: URL?, execTimeoutSeconds: Double?) throws {
            let hash = try recognizerModel.map { url in try ReportError.reading(url) { try ModelHash.hex(fileAt: url) } }
            self.init(recognizerModelHash: hash, execTimeoutSeconds: execTimeoutSeconds)
        }

        enum CodingKeys: String, CodingKey {
            case recognizerModelHash = "recognizer_model_hash", execTimeoutSeconds = "exec_timeout_seconds"
        }
    }

    package var detectionLog: Int
    /// The elements of each row, in order.
    package var columns: [String]?
    package var configs: [DetectionConfigEcho]
    package var settings: Settings

    package init(configs: [DetectionConfigEcho], settings: Settings) {
        detectionLog = Self.formatVersion
        columns = DetectionResultLine.columns
        self.configs = configs
        self.settings = settings
    }

    enum CodingKeys: String, CodingKey {
        case detectionLog = "detection_log", columns, configs, settings
    }

    /// What differs from `other` (the earlier run's header), one phrase per difference; empty when the
    /// results can be mixed. Configs are matched by name: order does not change a result.
    package func differences(from earlier: DetectionLogHeader) -> [String] {
        var out: [String] = []
        let before = Dictionary(earlier.configs.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        for config in configs {
            guard let old = before[config.name] else {
                out.append("config '\(config.name)' is new (the log has \(earlier.configs.map { "'\($0.name)'" }.joined(separator: ", ")))")
                continue
            }
            if old.detector != config.detector { out.append("config '\(config.name)': detector \(old.detector) → \(config.detector)") }
            if old.candidates != config.candidates || old.resolvedCandidates != config.resolvedCandidates {
                out.append("config '\(config.name)': candidates \(Self.describe(old)) → \(Self.describe(config))")
            }
            if old.hints != config.hints { out.append("config '\(config.name)': hints \(old.hints) → \(config.hints)") }
        }
        let names = Set(configs.map(\.name))
        for old in earlier.configs where !names.contains(old.name) {
            out.append("config '\(old.name)' is in the log but not in this run")
        }
        if earlier.settings.recognizerModelHash != settings.recognizerModelHash {
            out.append("recognizer model \(Self.short(earlier.settings.recognizerModelHash)) → \(Self.short(settings.recognizerModelHash)) (content hash)")
        }
        if earlier.settings.execTimeoutSeconds != settings.execTimeoutSeconds {
            out.append("exec timeout \(earlier.settings.execTimeoutSeconds.map { "\($0) s" } ?? "none") → \(settings.execTimeoutSeconds.map { "\($0) s" } ?? "none")")
        }
        return out
    }

    private static func describe(_ echo: DetectionConfigEcho) -> String {
        echo.resolvedCandidates.map { "\(echo.candidates) (\($0.joined(separator: ",")))" } ?? echo.candidates
    }

    private static func short(_ sha: String?) -> String {
        sha.map { String($0.prefix(12)) } ?? "none"
    }
}
