import Support
import Corpus
import Recognizer

/// Everything LangBench knows about one model: its file, the languages it declares supported (the
/// list the router checks at runtime), server and sampling settings, and its prompt templates.
/// Loaded from `Profiles/<name>.json`; see Profiles/README.md for every key.
package struct ModelProfile: Sendable, Hashable, Codable {
    package var schemaVersion: Int
    package var name: String
    package var model: ModelFile
    package var supportedLanguages: [LanguageCode]
    package var server: ServerSettings
    package var sampling: Sampling
    package var translationSampling: Sampling
    package var prompts: PromptTemplates
    /// Which API replies go through (`backend`; default: llama-server's native one).
    package var backend: BackendSettings = BackendSettings()

    /// The model file and how to check it.
    package struct ModelFile: Sendable, Hashable, Codable {
        package var file: String
        package var sha256: String
        package var package: String

        /// A bare file name means a file of the set-up models cache; a path is read from `file`'s directory.
        mutating func resolvePath(inFile suiteFile: String) {
            if file.contains("/") { self.file = SuitePath.resolve(file, inFile: suiteFile) }
        }
    }

    /// How `llama-server` is started for this model.
    package struct ServerSettings: Sendable, Hashable, Codable {
        package var contextSize: Int
        package var threads: Int
        package var parallelSlots: Int
        package var swaFull: Bool

        enum CodingKeys: String, CodingKey {
            case contextSize = "context_size", threads, parallelSlots = "parallel_slots", swaFull = "swa_full"
        }

        package init(contextSize: Int, threads: Int, parallelSlots: Int, swaFull: Bool) {
            self.contextSize = contextSize
            self.threads = threads
            self.parallelSlots = parallelSlots
            self.swaFull = swaFull
        }

        package init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            self.init(contextSize: try c.decode(Int.self, forKey: .contextSize), threads: try c.decode(Int.self, forKey: .threads),
                      parallelSlots: try c.decode(Int.self, forKey: .parallelSlots), swaFull: try c.decode(Bool.self, forKey: .swaFull))
            // 0 means "the model's own" to llama-server, so a profile could not say what it measured with.
            try StrictJSON.check(contextSize >= 64, "context_size", in: decoder, "must be at least 64 tokens, not \(contextSize)")
            try StrictJSON.check((1...256).contains(threads), "threads", in: decoder, "must be in 1...256, not \(threads)")
            try StrictJSON.check((1...256).contains(parallelSlots), "parallel_slots", in: decoder, "must be in 1...256, not \(parallelSlots)")
        }
    }

    /// Generation settings, always sent explicitly and echoed into reports.
    package struct Sampling: Sendable, Hashable, Codable {
        package var temperature: Double
        package var topK: Int
        package var topP: Double
        package var minP: Double
        package var seed: Int
        package var nPredict: Int
        package var stop: [String]
        package var cachePrompt: Bool
        /// Generate `nPredict` tokens whatever the model samples (timing and timeout tests); false in profiles.
        package var ignoreEOS: Bool

        enum CodingKeys: String, CodingKey {
            case temperature, topK = "top_k", topP = "top_p", minP = "min_p", seed, nPredict = "n_predict", stop, cachePrompt = "cache_prompt"
            case ignoreEOS = "ignore_eos"
        }

        package init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            temperature = try c.decode(Double.self, forKey: .temperature)
            topK = try c.decode(Int.self, forKey: .topK)
            topP = try c.decode(Double.self, forKey: .topP)
            minP = try c.decode(Double.self, forKey: .minP)
            seed = try c.decode(Int.self, forKey: .seed)
            nPredict = try c.decode(Int.self, forKey: .nPredict)
            stop = try c.decode([String].self, forKey: .stop)
            cachePrompt = try c.decode(Bool.self, forKey: .cachePrompt)
            ignoreEOS = try c.decodeIfPresent(Bool.self, forKey: .ignoreEOS) ?? false
            // -1 is llama.cpp's "until a stop string or the context ends"; 0 or below otherwise makes every reply empty.
            try StrictJSON.check(nPredict >= 1 || nPredict == -1, "n_predict", in: decoder, "must be at least 1 (or -1: until a stop string), not \(nPredict)")
            try StrictJSON.check(temperature >= 0 && temperature.isFinite, "temperature", in: decoder, "must be 0 or more, not \(temperature)")
            try StrictJSON.check((0...1).contains(topP), "top_p", in: decoder, "must be in 0...1, not \(topP)")
            try StrictJSON.check((0...1).contains(minP), "min_p", in: decoder, "must be in 0...1, not \(minP)")
        }
    }

    enum CodingKeys: String, CodingKey {
        case schemaVersion = "schema_version", name, model, supportedLanguages = "supported_languages", server, sampling
        case translationSampling = "translation_sampling", prompts, backend
    }

    package init(from decoder: Decoder) throws {
        try StrictJSON.rejectUnknownKeys(in: decoder, allowed: ["schema_version", "name", "model", "supported_languages", "server",
                                                                "sampling", "translation_sampling", "prompts", "backend"])
        let container = try decoder.container(keyedBy: CodingKeys.self)
        schemaVersion = try container.decodeIfPresent(Int.self, forKey: .schemaVersion) ?? 1
        try StrictJSON.checkSchemaVersion(schemaVersion)
        name = try container.decode(String.self, forKey: .name)
        try StrictJSON.check(!ItemValidator.isBlank(name), "name", in: decoder, "must name the profile (reports label its runs with it)")
        model = try container.decode(ModelFile.self, forKey: .model)
        supportedLanguages = try container.decode([LanguageCode].self, forKey: .supportedLanguages)
        server = try container.decode(ServerSettings.self, forKey: .server)
        sampling = try container.decode(Sampling.self, forKey: .sampling)
        translationSampling = try container.decodeIfPresent(Sampling.self, forKey: .translationSampling) ?? sampling
        prompts = try container.decode(PromptTemplates.self, forKey: .prompts)
        backend = try container.decodeIfPresent(BackendSettings.self, forKey: .backend) ?? BackendSettings()
    }

    /// Whether the model declares `language` supported, with locale equivalence (`en-AU` counts as `en`).
    package func supports(_ language: LanguageCode) -> Bool {
        supportedLanguages.contains { $0.isEquivalent(to: language) }
    }

    /// Reads a profile; a `model.file` that is a path (holds a `/`) is read from the profile's directory (`SuitePath`).
    package static func load(_ path: String) throws -> ModelProfile {
        var profile = try StrictJSON.loadEverySection(ModelProfile.self, from: path)
        profile.model.resolvePath(inFile: path)
        return profile
    }

    /// The profile the embedded default run uses, inside the tool's resources (`ToolResources`).
    package static let defaultResource = "Profiles/gemma3-270m.json"
    package static var defaultPath: String { ToolResources.path(defaultResource) }
}
