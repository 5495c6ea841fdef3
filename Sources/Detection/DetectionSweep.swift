import Support
import Corpus

/// Accuracy against candidate-set size: nested candidate sets, each run with and without priors, as generated
/// configs named `sweep-<set>` and `sweep-<set>+priors`. Declared beside the configs (`detection.sweep` in
/// bench.json, `sweep` in a `--configs` file):
///
///     "sweep": {"sets": [{"name": "cyrillic-en", "candidates": ["ru", "uk", "bg", "mk", "sr", "be", "kk", "en"]},
///                        {"name": "seed", "candidates": "profile:supported + app:ru + device:en,uk"},
///                        {"name": "all", "candidates": "none"}],
///               "hints": {"ru": 0.5, "en": 0.35}}
///
/// `"none"` is every language the detector knows (no constraint). Every set holds the hints' languages (checked here for
/// a list; an expression is checked when it is resolved, as a config's). The report's sweep table gives, per set, its
/// size and accuracy over the items whose language is in it, without and with the priors.
package struct DetectionSweep: Sendable, Hashable, Decodable {
    package struct Set: Sendable, Hashable, Decodable {
        package var name: String
        package var candidates: CandidateSpec

        package init(name: String, candidates: CandidateSpec) {
            self.name = name
            self.candidates = candidates
        }

        package init(from decoder: Decoder) throws {
            try StrictJSON.rejectUnknownKeys(in: decoder, allowed: ["name", "candidates"])
            let container = try decoder.container(keyedBy: StrictJSON.AnyKey.self)
            name = try container.decode(String.self, forKey: .init(stringValue: "name"))
            candidates = try container.decode(CandidateSpec.self, forKey: .init(stringValue: "candidates"))
            try StrictJSON.check(DetectionSweep.isName(name), "name", in: decoder,
                                 "'\(name)' must be letters, digits, '-' or '_' (it names the configs sweep-\(name) and sweep-\(name)+priors)")
            do { try candidates.check() } catch { try StrictJSON.check(false, "candidates", in: decoder, "\(error)") }
        }
    }

    package var sets: [Set]
    package var hints: [LanguageCode: Double]

    package static let prefix = "sweep-"
    package static let priorsSuffix = "+priors"

    package init(sets: [Set], hints: [LanguageCode: Double]) {
        self.sets = sets
        self.hints = hints
    }

    package init(from decoder: Decoder) throws {
        try StrictJSON.rejectUnknownKeys(in: decoder, allowed: ["sets", "hints"])
        let container = try decoder.container(keyedBy: StrictJSON.AnyKey.self)
        sets = try container.decode([Set].self, forKey: .init(stringValue: "sets"))
        let weights = try container.decodeIfPresent([String: Double].self, forKey: .init(stringValue: "hints")) ?? [:]
        var hints: [LanguageCode: Double] = [:]
        for (code, weight) in weights {
            do { hints[try LanguageCode(code)] = weight } catch {
                try StrictJSON.check(false, "hints", in: decoder, "\(error)")
            }
            try StrictJSON.check(weight.isFinite && weight > 0 && weight <= DetectionConfig.maxHintWeight, "hints", in: decoder,
                                 "hint '\(code)' must be a weight in (0, 1000000], not \(weight)")
        }
        self.hints = hints
        try StrictJSON.check(!sets.isEmpty, "sets", in: decoder, "must hold at least one set")
        try StrictJSON.check(!hints.isEmpty, "hints", in: decoder, "must give the priors each set is run with as well as without")
        let names = sets.map(\.name)
        try StrictJSON.check(Swift.Set(names).count == names.count, "sets", in: decoder, "set names must differ")
        // The priors apply to every set: a set must hold each hint's language (as a config's must).
        for set in sets {
            guard case .list(let codes) = set.candidates,
                  let missing = hints.keys.sorted().first(where: { hint in !codes.contains { $0.isEquivalent(to: hint) } }) else { continue }
            try StrictJSON.check(false, "sets", in: decoder, "set '\(set.name)' lacks \(missing), a language of the sweep's hints; add it to the set")
        }
    }

    /// Per set, the config without priors then the one with them.
    package func configs(detector: String) -> [DetectionConfig] {
        sets.flatMap { set in
            [DetectionConfig(name: Self.prefix + set.name, detector: detector, candidates: set.candidates),
             DetectionConfig(name: Self.prefix + set.name + Self.priorsSuffix, detector: detector, candidates: set.candidates, hints: hints)]
        }
    }

    /// The sweep set a generated config belongs to, and whether it carries the priors; nil for any other config.
    package static func set(ofConfig name: String) -> (set: String, priors: Bool)? {
        guard name.hasPrefix(prefix) else { return nil }
        let rest = name.dropFirst(prefix.count)
        return rest.hasSuffix(priorsSuffix) ? (String(rest.dropLast(priorsSuffix.count)), true) : (String(rest), false)
    }

    static func isName(_ name: String) -> Bool {
        !name.isEmpty && name.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "-" || $0 == "_" }
    }
}
