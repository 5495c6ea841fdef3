import BenchSupport
import Foundation

/// The first line of `detection-results.jsonl`: what the logged results were measured with, so that
/// `--resume` can refuse to mix them with results of other configs or settings. From format 3 it names
/// the rows' columns (`DetectionResultLine.columns`); a format-2 header has none.
public struct DetectionLogHeader: Sendable, Hashable, Codable {
    static let formatVersion = 3

    /// Settings outside the configs that change results.
    public struct Settings: Sendable, Hashable, Codable {
        /// The built-in recognizer's model file's content hash (`ModelHash`), when a config uses `builtin`.
        public var recognizerModelHash: String?
        /// The same file's byte-wise `FNV1a64`: what logs recorded before `recognizer_model_hash` existed. A run
        /// writes it only when it resumes such a log (it is what that log's results are checked against).
        public var recognizerModel: String?
        /// Per-item timeout of `exec:` detectors in seconds, when a config uses one.
        public var execTimeoutSeconds: Double?

        public init(recognizerModelHash: String? = nil, recognizerModel: String? = nil, execTimeoutSeconds: Double? = nil) {
            self.recognizerModelHash = recognizerModelHash
            self.recognizerModel = recognizerModel
            self.execTimeoutSeconds = execTimeoutSeconds
        }

        /// The settings of a run whose built-in recognizer reads the model file at `recognizerModel` (nil when
        /// no config uses `builtin`), hashed here so that which hash the log keeps stays this target's choice.
        public init(recognizerModelAt recognizerModel: URL?, execTimeoutSeconds: Double?) throws {
            let hash = try recognizerModel.map { url in try ReportError.reading(url) { try ModelHash.hex(fileAt: url) } }
            self.init(recognizerModelHash: hash, execTimeoutSeconds: execTimeoutSeconds)
        }

        enum CodingKeys: String, CodingKey {
            case recognizerModelHash = "recognizer_model_hash", recognizerModel = "recognizer_model_fnv1a64", execTimeoutSeconds = "exec_timeout_seconds"
        }
    }

    public var detectionLog: Int
    /// The elements of each row, in order (nil in a format-2 header, whose results are objects).
    public var columns: [String]?
    public var configs: [DetectionReport.ConfigEcho]
    public var settings: Settings

    public init(configs: [DetectionReport.ConfigEcho], settings: Settings) {
        detectionLog = Self.formatVersion
        columns = DetectionResultLine.columns
        self.configs = configs
        self.settings = settings
    }

    /// This header as the current format writes it (a format-2 log's header, for its rewrite or a merge).
    var current: DetectionLogHeader {
        DetectionLogHeader(configs: configs, settings: settings)
    }

    enum CodingKeys: String, CodingKey {
        case detectionLog = "detection_log", columns, configs, settings
    }

    /// What differs from `other` (the earlier run's header), one phrase per difference; empty when the
    /// results can be mixed. Configs are matched by name: order does not change a result.
    public func differences(from earlier: DetectionLogHeader) -> [String] {
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
        // A log written before `recognizer_model_hash` existed names the model by its byte-wise FNV-1a only (`legacyModelHashNeeded`).
        let model = earlier.legacyModelHashNeeded ? \Settings.recognizerModel : \Settings.recognizerModelHash
        if earlier.settings[keyPath: model] != settings[keyPath: model] {
            out.append("recognizer model \(Self.short(earlier.settings[keyPath: model])) → \(Self.short(settings[keyPath: model])) (content hash)")
        }
        if earlier.settings.execTimeoutSeconds != settings.execTimeoutSeconds {
            out.append("exec timeout \(earlier.settings.execTimeoutSeconds.map { "\($0) s" } ?? "none") → \(settings.execTimeoutSeconds.map { "\($0) s" } ?? "none")")
        }
        return out
    }

    /// Whether this (earlier) header names the model only by its byte-wise FNV-1a, so that a run resuming
    /// its log must compute that hash of the model too (`Settings.recognizerModel`).
    var legacyModelHashNeeded: Bool {
        settings.recognizerModelHash == nil && settings.recognizerModel != nil
    }

    private static func describe(_ echo: DetectionReport.ConfigEcho) -> String {
        echo.resolvedCandidates.map { "\(echo.candidates) (\($0.joined(separator: ",")))" } ?? echo.candidates
    }

    private static func short(_ sha: String?) -> String {
        sha.map { String($0.prefix(12)) } ?? "none"
    }
}
