import Support
import Foundation
import Corpus

/// A detector and how it is narrowed: the unit `detect` compares.
public struct DetectionConfig: Sendable, Hashable {
    /// Unique within a run, e.g. `constrained+priors`.
    public var name: String
    /// `builtin`, or `exec:<command>` for a detector speaking the JSON-lines protocol.
    public var detector: String
    public var candidates: CandidateSpec
    /// Prior weights per language (Apple's `languageHints`).
    public var hints: [LanguageCode: Double]

    public init(name: String, detector: String = DetectorKind.builtin.spec, candidates: CandidateSpec = .none, hints: [LanguageCode: Double] = [:]) {
        self.name = name
        // An exec spec is held by its label (outputs never show its arguments); the factory runs the spec as written.
        self.detector = Redaction.label(ofCommand: detector)
        self.candidates = candidates
        self.hints = hints
    }

    /// The seed architecture's candidate set: model-supported ∪ the app's language ∪ the device's.
    public static let seedCandidates = CandidateSpec.expression("profile:supported + app:ru + device:en,uk")
    /// The seed architecture's priors.
    public static let seedHints: [LanguageCode: Double] = [LanguageCode(normalised: "ru"): 0.5, LanguageCode(normalised: "en"): 0.35]

    /// The three configs that tell the story when none are given.
    public static func defaults(detector: String = DetectorKind.builtin.spec) -> [DetectionConfig] {
        [
            DetectionConfig(name: "unconstrained", detector: detector),
            DetectionConfig(name: "constrained", detector: detector, candidates: seedCandidates),
            seedArchitecture(detector: detector),
        ]
    }

    /// What the seed architecture's pipeline detects with: its candidates and its priors. The reply
    /// pipeline uses it when no config is given.
    public static func seedArchitecture(detector: String = DetectorKind.builtin.spec) -> DetectionConfig {
        DetectionConfig(name: "constrained+priors", detector: detector, candidates: seedCandidates, hints: seedHints)
    }

    /// Parses `ru=0.5,en=0.35`.
    public static func parseHints(_ text: String) throws -> [LanguageCode: Double] {
        var hints: [LanguageCode: Double] = [:]
        for pair in text.split(separator: ",") {
            let parts = pair.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, let weight = Double(parts[1]), weight.isFinite, weight > 0, weight <= maxHintWeight else {
                throw ConfigurationError.invalidValue(name: "hints", value: String(pair), reason: "expected <lang>=<weight in (0, 1000000]>, e.g. ru=0.5")
            }
            let code: LanguageCode
            do { code = try LanguageCode(parts[0]) } catch {
                throw ConfigurationError.invalidValue(name: "hints", value: String(pair), reason: error.description)
            }
            if let earlier = hints[code] {
                throw ConfigurationError.invalidValue(name: "hints", value: text, reason: duplicateHint(code, earlier, weight))
            }
            hints[code] = weight
        }
        return hints
    }

    static func duplicateHint(_ code: LanguageCode, _ first: Double, _ second: Double) -> String {
        "\(code) has two weights (\(first) and \(second)); give each language one weight"
    }

    /// The candidate set (`CandidateSpec.resolve`), refusing a hint for a language outside it: the
    /// detector never weighs a language it may not answer, so the hint would be shown and do nothing.
    public func resolvedCandidates(supported: [LanguageCode]) throws(ConfigurationError) -> [LanguageCode]? {
        let candidates = try candidates.resolve(supported: supported)
        if let candidates, let outside = hints.keys.sorted().first(where: { hint in !candidates.contains { $0.isEquivalent(to: hint) } }) {
            throw ConfigurationError.invalidValue(name: "hints", value: hintsDescription,
                reason: "config '\(name)': \(outside) is not among its candidates (\(candidates.map(\.identifier).joined(separator: ","))), "
                    + "so the hint would do nothing; add \(outside) to the candidates or remove the hint")
        }
        return candidates
    }

    /// `ru=0.5,en=0.35`, sorted by language.
    public var hintsDescription: String {
        hints.isEmpty ? "none" : hints.sorted { $0.key < $1.key }.map { "\($0.key)=\(formatWeight($0.value))" }.joined(separator: ",")
    }

    /// A weight a million times the default share already means "always this language when it is possible".
    public static let maxHintWeight = 1_000_000.0

    private func formatWeight(_ value: Double) -> String {
        // Int(_:) traps beyond ±2^63: only whole numbers well inside that print without a decimal point.
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}

extension DetectionConfig: Codable {
    static let keys = ["name", "detector", "candidates", "hints"]
    private enum CodingKeys: String, CodingKey { case name, detector, candidates, hints }

    public init(from decoder: Decoder) throws {
        try StrictJSON.rejectUnknownKeys(in: decoder, allowed: Self.keys)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        try Self.check(!ItemValidator.isBlank(name), "name", in: decoder, "must name the config (it labels every row of the report), not '\(name)'")
        // As outputs show it: a URL's credentials in an exec: command are redacted (`DetectorFactory` runs the spec as written).
        detector = Redaction.label(ofCommand: try container.decodeIfPresent(String.self, forKey: .detector) ?? DetectorKind.builtin.spec)
        candidates = try container.decodeIfPresent(CandidateSpec.self, forKey: .candidates) ?? .none
        do { try candidates.check() } catch {
            try Self.check(false, "candidates", in: decoder, "\(error)")
        }
        var hints: [LanguageCode: Double] = [:]
        for (code, weight) in (try container.decodeIfPresent([String: Double].self, forKey: .hints) ?? [:]).sorted(by: { $0.key < $1.key }) {
            try Self.check(weight.isFinite && weight > 0 && weight <= Self.maxHintWeight, "hints", in: decoder,
                                 "hint '\(code)' must be a weight in (0, 1000000], not \(weight)")
            let language: LanguageCode
            do { language = try LanguageCode(code) } catch {
                throw DecodingError.dataCorruptedError(forKey: .hints, in: container, debugDescription: error.description)
            }
            if let earlier = hints[language] {
                try Self.check(false, "hints", in: decoder, Self.duplicateHint(language, earlier, weight))
            }
            hints[language] = weight
        }
        self.hints = hints
        // Candidates that do not depend on the profile are known now: a useless hint is refused with the file.
        if !candidates.usesProfile {
            do { _ = try resolvedCandidates(supported: []) } catch {
                try Self.check(false, "hints", in: decoder, "\(error)")
            }
        }
    }

    /// `StrictJSON.check` naming array positions as numbers (`configs.0.hints`, not `configs.Index 0.hints`).
    private static func check(_ valid: Bool, _ key: String, in decoder: Decoder, _ reason: @autoclosure () -> String) throws {
        guard !valid else { return }
        throw StrictJSON.OutOfRange(keyPath: decoder.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue } + [key], reason: reason())
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(detector, forKey: .detector)
        try container.encode(candidates, forKey: .candidates)
        try container.encode(Dictionary(uniqueKeysWithValues: hints.map { ($0.key.identifier, $0.value) }), forKey: .hints)
    }
}

extension [DetectionConfig] {
    /// Whether any config's candidates need the model profile (`profile:supported`): only then is it read.
    public var usesProfile: Bool { contains { $0.candidates.usesProfile } }
}
