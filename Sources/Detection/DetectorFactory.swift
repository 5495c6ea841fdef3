import Support
import Foundation

/// Makes detectors from the names used in configs: `builtin`, `exec:<command>`, and on Apple
/// platforms `apple` (NLLanguageRecognizer).
public struct DetectorFactory: Sendable {
    /// Per-item timeout for external detectors.
    public var timeout: Duration
    /// The built-in recognizer's model file; nil is the bundled `Models/recognizer.lbrm`.
    public var recognizerModel: String?

    public init(timeout: Duration = .seconds(10), recognizerModel: String? = nil) {
        self.timeout = timeout
        self.recognizerModel = recognizerModel
    }

    /// What judges a reply's language when `name` is the detector: the detector and, for the built-in recognizer, its
    /// model by content (`builtin recognizer 1a2b…`). Two runs whose judges differ judged "served" differently.
    public func judge(_ name: String) throws -> String {
        guard DetectorKind(name) == .builtin else { return name }
        let url = try BuiltinDetector.modelURL(path: recognizerModel)
        return "builtin recognizer " + (try ReportError.reading(url) { try ModelHash.hex(fileAt: url) })
    }

    public func make(_ name: String) async throws -> any LanguageIdentifying {
        switch DetectorKind(name) {
        case .builtin: return try BuiltinDetector(modelPath: recognizerModel)
        case .exec:
            // `name` is the spec as outputs show it; the command runs as it was written, credentials and all.
            guard case .exec(let written) = DetectorKind(Redaction.command(for: name)) else { break }
            let command = written.trimmingCharacters(in: .whitespaces)
            try CommandLabel.checkRunnable(command, key: "detector")
            return ExternalDetector(command: command, name: name, timeout: timeout)
        case .apple:
            #if canImport(NaturalLanguage)
            return AppleDetector()
            #else
            break
            #endif
        case .oracle, nil: break
        }
        throw ConfigurationError.invalidValue(name: "detector", value: name, reason: "unknown detector; use builtin, exec:<command>" + (Self.hasApple ? " or apple" : ""))
    }

    static var hasApple: Bool {
        #if canImport(NaturalLanguage)
        true
        #else
        false
        #endif
    }
}
