import Support
import Foundation

/// One named way of generating replies: the run's profile with a set of overrides applied (instructions and
/// speakers per language, templates, translation examples, sampling, or another model and server). Every item
/// goes through every variant, so two prompts are compared on the same items in one run.
package struct GenerationVariant: Sendable, Hashable {
    package var name: String
    /// What the variant changes, in a sentence, echoed into reports.
    package var description: String
    /// The fully resolved profile this variant generates with.
    package var profile: ModelProfile
    /// The engine its pivot translates with; nil: the run's.
    package var translator: TranslatorSpec?

    package init(name: String, description: String = "", profile: ModelProfile, translator: TranslatorSpec? = nil) {
        self.name = name
        self.description = description
        self.profile = profile
        self.translator = translator
    }

    /// Variants that can share one `llama-server`: same model file and server settings.
    package var serverKey: String {
        "\(profile.model.file)|\(profile.model.sha256)|\(profile.server.contextSize)|\(profile.server.threads)|\(profile.server.swaFull)"
    }
}

/// A variants file (`--variants FILE`, `generation.variants` in `bench.json`): a list of named overrides on
/// the run's profile. With no file, the run is one variant named after the profile.
package enum VariantSet {
    static let variantKeys = ["name", "description", "profile", "model", "server", "sampling", "translation_sampling", "prompts", "translator"]

    /// The single variant of a run without a variants file.
    package static func single(_ profile: ModelProfile) -> [GenerationVariant] {
        [GenerationVariant(name: profile.name, profile: profile)]
    }

    /// Reads `path` and applies each variant to `base`. `loadProfile` reads a variant's `profile` (another
    /// model); paths in the file (`profile`, `model.file`) are read from the file's directory (`SuitePath`).
    package static func load(_ path: String, base: ModelProfile,
                            loadProfile: (String) throws -> ModelProfile = ModelProfile.load) throws -> [GenerationVariant] {
        try parse(StrictJSON.read(path), path: path, base: base, loadProfile: loadProfile)
    }

    package static func parse(_ data: Data, path: String, base: ModelProfile,
                             loadProfile: (String) throws -> ModelProfile = ModelProfile.load) throws -> [GenerationVariant] {
        let root: [String: Any]
        do {
            guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
                throw ConfigurationError.invalid(path: path, reason: "expected a JSON object with \"variants\"")
            }
            root = object
        } catch let error as ConfigurationError {
            throw error
        } catch {
            throw StrictJSON.syntaxError(in: data, path: path)
                ?? ConfigurationError.invalid(path: path, reason: "invalid JSON: \((error as NSError).localizedDescription)")
        }
        let fail = { (key: String, reason: String) in ConfigurationError.invalid(path: path, reason: "\(key): \(reason)") }
        if let unknown = root.keys.filter({ !["schema_version", "variants"].contains($0) }).sorted().first {
            throw fail(unknown, "unknown key; allowed: schema_version, variants")
        }
        if let version = root["schema_version"], (version as? Int) != 1 {
            throw fail("schema_version", "\(version) is not supported (this LangBench reads 1)")
        }
        guard let list = root["variants"] as? [[String: Any]], !list.isEmpty else {
            throw fail("variants", "expected a non-empty list of objects")
        }
        var variants: [GenerationVariant] = []
        for (index, entry) in list.enumerated() {
            let at = "variants[\(index)]"
            if let unknown = entry.keys.filter({ !variantKeys.contains($0) }).sorted().first {
                throw fail("\(at).\(unknown)", "unknown key; allowed: \(variantKeys.joined(separator: ", "))")
            }
            guard let name = entry["name"] as? String, !name.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw fail("\(at).name", "every variant needs a non-empty name")
            }
            if variants.contains(where: { $0.name == name }) { throw fail("\(at).name", "'\(name)' is used twice") }
            var profile = base
            if let other = entry["profile"] {
                guard let otherPath = other as? String else { throw fail("\(at).profile", "expected a path to a profile file") }
                profile = try loadProfile(SuitePath.resolve(otherPath, inFile: path))
            }
            var translator: TranslatorSpec?
            if let spec = entry["translator"] {
                guard let text = spec as? String else { throw fail("\(at).translator", "expected llm, apertium, apertium:<url> or exec:<command>") }
                do { translator = try TranslatorSpec(text, key: "\(at).translator") } catch let error as ConfigurationError {
                    guard case .invalidValue(_, _, let reason) = error else { throw error }
                    throw fail("\(at).translator", reason)
                }
            }
            let overrides = entry.filter { !["name", "description", "profile", "translator"].contains($0.key) }
            let modelBefore = profile.model.file
            profile = try ProfileOverrides.apply(overrides, to: profile, at: at, fail: fail)
            if profile.model.file != modelBefore { profile.model.resolvePath(inFile: path) }
            variants.append(GenerationVariant(name: name, description: entry["description"] as? String ?? "", profile: profile, translator: translator))
        }
        return variants
    }
}

/// A variant's model file is not where a started server would load it from (exit 69): named with the
/// variant and the key that chose the file, before any server starts.
package struct VariantModelMissing: Error, Sendable, Equatable, CustomStringConvertible {
    package var variant: String
    /// The variant's position in the variants file.
    package var index: Int
    package var path: String

    package init(variant: String, index: Int, path: String) {
        self.variant = variant
        self.index = index
        self.path = path
    }

    package var description: String {
        "variant '\(variant)' (variants[\(index)].model.file): model not found at \(path); install it there, or run scripts/setup-model for the default model"
    }
}
